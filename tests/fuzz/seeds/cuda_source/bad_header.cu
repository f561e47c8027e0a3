// kscope: entry= reference= inputs=A:0x-1:half,B:99999999999999999999x1:float,:1:int8
// kscope: entry=x entry=y level=abc number=-5 bogus=1
