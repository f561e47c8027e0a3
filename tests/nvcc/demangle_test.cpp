#include "core/nvcc/demangle.h"

#include <gtest/gtest.h>

namespace ks::nvcc {
namespace {

TEST(Demangle, KernelNames) {
  EXPECT_EQ(demangle("_Z5heavyPfPKfi"), "heavy(float*, float const*, int)");
  EXPECT_EQ(demangle("_Z12scale_kernelIdLi8EEvPT_PKS0_S0_i"),
            "void scale_kernel<double, 8>(double*, double const*, double, int)");
  EXPECT_EQ(demangle("plain_c"), "plain_c");          // extern "C"
  EXPECT_EQ(demangle("_Znot_valid"), "_Znot_valid");  // looks mangled, is not
}

TEST(Demangle, QuotedNamesInMessages) {
  EXPECT_EQ(demangleQuoted("Entry function '_Z7too_bigPf' uses too much shared data"),
            "Entry function 'too_big(float*)' uses too much shared data");
  EXPECT_EQ(demangleQuoted("no quotes here"), "no quotes here");
  EXPECT_EQ(demangleQuoted("'_Z1fv' and 'g' and '_Z1hi'"), "'f()' and 'g' and 'h(int)'");
}

}  // namespace
}  // namespace ks::nvcc
