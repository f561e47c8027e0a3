# KSCOPE_FUZZ=ON: the libFuzzer tree (tests/fuzz, run by tests/fuzz/run.sh). Clang only, in a build folder of
# its own: every library this tree compiles gets AddressSanitizer, UndefinedBehaviorSanitizer (a report
# aborts, so libFuzzer counts it as a crash) and libFuzzer's coverage instrumentation; only the fuzz
# targets link libFuzzer's main. The normal (gcc) build never sees these flags.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "KSCOPE_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ "
                      "in a build folder of its own (tests/fuzz/run.sh does)")
endif()
# Build type Fuzz (tests/fuzz/run.sh): optimised, asserts kept (no NDEBUG), line tables for the reports.
# project() has already made an empty CMAKE_CXX_FLAGS_FUZZ cache entry for this build type it does not know,
# so a plain CACHE default would never apply (it did not, until 2026-11-29: the targets ran at -O0, 2.4 to 5
# times slower a worker; docs/fuzzing.md). Empty means ours; a value given with -D is kept.
if(NOT CMAKE_CXX_FLAGS_FUZZ)
  set(CMAKE_CXX_FLAGS_FUZZ "-O2" CACHE STRING "Flags of the Fuzz build type" FORCE)
endif()
add_compile_options(-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer
                    -gline-tables-only)
add_link_options(-fsanitize=address,undefined)

# libFuzzer's runtime is a package of its own on Debian (libclang-rt-14-dev, through libclang-rt-dev), which
# clang does not depend on: say so here rather than at the first link. The compiler, the runtime and the
# symbolizer join KS_FOUND_FILES, so packaging/check-deps.sh holds the test install list to them.
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.fuzzer-${CMAKE_SYSTEM_PROCESSOR}.a
                OUTPUT_VARIABLE ks_fuzzer_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${ks_fuzzer_runtime}" OR NOT EXISTS "${ks_fuzzer_runtime}")
  message(FATAL_ERROR "KSCOPE_FUZZ=ON: ${CMAKE_CXX_COMPILER} has no libFuzzer runtime "
                      "(libclang_rt.fuzzer): apt-get install libclang-rt-dev (packaging/debian-test-deps.txt)")
endif()
find_program(KS_LLVM_SYMBOLIZER NAMES llvm-symbolizer llvm-symbolizer-14)
set(ks_fuzz_found_files ${CMAKE_CXX_COMPILER} ${ks_fuzzer_runtime})
if(KS_LLVM_SYMBOLIZER)
  list(APPEND ks_fuzz_found_files ${KS_LLVM_SYMBOLIZER})
endif()
