# ks_target_warnings(<target>): the project's warning set; errors in CI (KSCOPE_WERROR=ON).
function(ks_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter -Wno-missing-field-initializers)
  if(KSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # GCC's -Wsubobject-linkage is about headers: a class that derives from one in an anonymous namespace of
  # a file other than the main file. In a unity batch every source is such a file, so each GoogleTest
  # fixture in an anonymous namespace would warn; the build of one file a unit keeps the check.
  if(KSCOPE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# ks_add_library(<name> SOURCES ... DEPS ...): a small core library rooted at the repository root, so
# includes read "core/<lib>/<file>.h" and a newcomer finds the file from the include line.
function(ks_add_library name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${A_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${A_DEPS} PRIVATE ${A_PRIVATE_DEPS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  ks_target_warnings(${name})
endfunction()

# ks_add_test(<name> SOURCES ... DEPS ... [LABELS ...]): one GoogleTest executable, discovered by ctest.
function(ks_add_test name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE ${A_DEPS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  # KS_SOURCE_DIR, KS_SHARED_DIR and KS_BINARY_DIR come from tests/ks_test_paths.h (generated), included
  # only by the tests that read files: a definition on the command line would differ in every clone and
  # keep the compiler cache from serving any of the target's objects.
  target_include_directories(${name} PRIVATE ${CMAKE_BINARY_DIR}/generated)
  ks_target_warnings(${name})
  set(labels unit)
  if(A_LABELS)
    set(labels ${A_LABELS})
  endif()
  gtest_discover_tests(${name} PROPERTIES LABELS "${labels}" DISCOVERY_TIMEOUT 60)
endfunction()
