# The interpreter's static, non-PIC libpython (sysconfig LIBPL/LIBRARY, e.g.
# /usr/lib/python3.11/config-3.11-x86_64-linux-gnu/libpython3.11.a) and the system libraries it needs, for
# kscope-runner: included after find_package(Python3), it sets KS_PYTHON_STATIC_ARCHIVE (empty where the
# interpreter has none) and KS_PYTHON_STATIC_LIBS.
#
# ks_link_static_python(<target>) links the archive whole into <target>, a non-PIE executable that exports its
# symbols (-export-dynamic) to the extension modules it imports: the way Debian's and Ubuntu's python3
# executable is linked. The shared libpython an embedding links otherwise is built as position-independent
# code, and Python-bound work runs slower in it (a candidate of 200 nn.Module calls a forward, in
# kscope-runner on the 2-core machine: 0.161 ms with the shared library, 0.138 ms linked statically, 0.171 ms
# with the library's -pic.a archive; docs/method-fidelity.md, "The interpreter"). Without an archive the
# target keeps the shared library; the runner reports which it has (environment "python_link").
set(KS_PYTHON_STATIC_ARCHIVE "")
set(KS_PYTHON_STATIC_LIBS "")
execute_process(
  COMMAND ${Python3_EXECUTABLE} -c
    "import os, sysconfig as s; v = s.get_config_var; print(os.path.join(v('LIBPL') or '', v('LIBRARY') or '')); print(' '.join((v('LIBS') or '', v('SYSLIBS') or '', v('MODLIBS') or '')))"
  OUTPUT_VARIABLE ks_out RESULT_VARIABLE ks_status OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
string(REPLACE "\n" ";" ks_out "${ks_out}")
list(LENGTH ks_out ks_n)
if(ks_status EQUAL 0 AND ks_n EQUAL 2)
  list(GET ks_out 0 ks_archive)
  list(GET ks_out 1 ks_libs)
  if(ks_archive MATCHES "\\.a$" AND EXISTS "${ks_archive}")
    set(KS_PYTHON_STATIC_ARCHIVE "${ks_archive}")
    separate_arguments(KS_PYTHON_STATIC_LIBS UNIX_COMMAND "${ks_libs}")
    list(REMOVE_DUPLICATES KS_PYTHON_STATIC_LIBS)
  endif()
endif()
if(KS_PYTHON_STATIC_ARCHIVE)
  # An archive this compiler cannot link (another compiler's LTO objects, a PIC-only build) is left out, not
  # a failed build: a program that starts the interpreter must link with it as the runner will.
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${Python3_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_LINK_OPTIONS -no-pie "LINKER:--export-dynamic")
  set(CMAKE_REQUIRED_LIBRARIES "-Wl,--whole-archive" "${KS_PYTHON_STATIC_ARCHIVE}" "-Wl,--no-whole-archive"
      ${KS_PYTHON_STATIC_LIBS})
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles("#include <Python.h>\nint main() { Py_Initialize(); return Py_FinalizeEx(); }"
                            KS_PYTHON_STATIC_LINKS)
  unset(CMAKE_REQUIRED_INCLUDES)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  unset(CMAKE_REQUIRED_LIBRARIES)
  unset(CMAKE_REQUIRED_QUIET)
  if(NOT KS_PYTHON_STATIC_LINKS)
    message(STATUS "${KS_PYTHON_STATIC_ARCHIVE} does not link here: kscope-runner links the shared libpython")
    set(KS_PYTHON_STATIC_ARCHIVE "")
  endif()
endif()
if(KS_PYTHON_STATIC_ARCHIVE)
  message(STATUS "Static libpython for kscope-runner: ${KS_PYTHON_STATIC_ARCHIVE}")
else()
  message(STATUS "No static libpython from ${Python3_EXECUTABLE}: kscope-runner links the shared one")
endif()

function(ks_link_static_python target)
  if(NOT KS_PYTHON_STATIC_ARCHIVE)
    return()
  endif()
  target_link_libraries(${target} PRIVATE "-Wl,--whole-archive" "${KS_PYTHON_STATIC_ARCHIVE}"
                        "-Wl,--no-whole-archive" ${KS_PYTHON_STATIC_LIBS})
  target_link_options(${target} PRIVATE -no-pie "LINKER:--export-dynamic")
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE OFF KS_PYTHON_LINK static)
endfunction()
