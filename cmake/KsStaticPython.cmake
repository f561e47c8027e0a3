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
set(KS_PYTHON_STATIC_ARCHIVE "")  # what the runner links (the interpreter's archive, or a copy of it)
set(KS_PYTHON_SOURCE_ARCHIVE "")  # the interpreter's own archive, for packaging/check-deps.sh
set(KS_PYTHON_STATIC_LIBS "")
set(KS_PYTHON_STATIC_STUB "")     # init functions for the built-in modules the copy leaves out
set(KS_PYTHON_MISSING_BUILTINS "")
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
    set(KS_PYTHON_SOURCE_ARCHIVE "${ks_archive}")
    separate_arguments(ks_libs UNIX_COMMAND "${ks_libs}")
    list(REMOVE_DUPLICATES ks_libs)
    # MODLIBS can name files of the interpreter's own build tree (Python 3.12's
    # Modules/_hacl/libHacl_Hash_SHA2.a), which no distribution ships: only flags and files that exist are kept.
    foreach(ks_lib IN LISTS ks_libs)
      if(ks_lib MATCHES "^-" OR EXISTS "${ks_lib}")
        list(APPEND KS_PYTHON_STATIC_LIBS "${ks_lib}")
      endif()
    endforeach()
  endif()
endif()

# Links a program that starts the interpreter as the runner will: the archive whole, non-PIE, exporting.
function(_ks_static_python_link archive stub ok_var log_var)
  set(dir "${CMAKE_BINARY_DIR}/ks_static_python")
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/probe.cpp" "#include <Python.h>\nint main() { Py_Initialize(); return Py_FinalizeEx(); }\n")
  set(includes "")
  foreach(inc IN LISTS Python3_INCLUDE_DIRS)
    list(APPEND includes "-I${inc}")
  endforeach()
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} ${includes} "${dir}/probe.cpp" ${stub} -no-pie -Wl,--export-dynamic
            -Wl,--whole-archive "${archive}" -Wl,--no-whole-archive ${KS_PYTHON_STATIC_LIBS} -o "${dir}/probe"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    set(${ok_var} TRUE PARENT_SCOPE)
  else()
    set(${ok_var} FALSE PARENT_SCOPE)
  endif()
  set(${log_var} "${out}" PARENT_SCOPE)
endfunction()

if(KS_PYTHON_SOURCE_ARCHIVE)
  file(TIMESTAMP "${KS_PYTHON_SOURCE_ARCHIVE}" ks_stamp)
  set(ks_key "${KS_PYTHON_SOURCE_ARCHIVE}|${ks_stamp}|${CMAKE_CXX_COMPILER}")
  if(DEFINED CACHE{KS_PYTHON_STATIC_CHECKED} AND "$CACHE{KS_PYTHON_STATIC_CHECKED}" STREQUAL "${ks_key}")
    set(KS_PYTHON_STATIC_ARCHIVE "${KS_PYTHON_STATIC_RESULT_ARCHIVE}")
    set(KS_PYTHON_STATIC_STUB "${KS_PYTHON_STATIC_RESULT_STUB}")
    set(KS_PYTHON_MISSING_BUILTINS "${KS_PYTHON_STATIC_RESULT_MISSING}")
  else()
    _ks_static_python_link("${KS_PYTHON_SOURCE_ARCHIVE}" "" ks_ok ks_log)
    if(ks_ok)
      set(KS_PYTHON_STATIC_ARCHIVE "${KS_PYTHON_SOURCE_ARCHIVE}")
    elseif(ks_log MATCHES "undefined reference")
      # A built-in module whose parts the distribution did not ship (Ubuntu's Python 3.12: sha2module.o needs
      # the HACL* objects of CPython's build tree): the members with undefined references are left out of a
      # copy of the archive when each is a built-in module (it defines PyInit_<name>), and that module's
      # import raises ImportError instead (hashlib then takes SHA-2 from OpenSSL, as it does first anyway).
      set(ks_members "")
      set(ks_member "")
      string(REPLACE "\n" ";" ks_lines "${ks_log}")
      foreach(ks_line IN LISTS ks_lines)
        if(ks_line MATCHES "\\.a\\(([^()]+\\.o)\\)")
          set(ks_member "${CMAKE_MATCH_1}")
        endif()
        if(ks_line MATCHES "undefined reference" AND ks_member)
          list(APPEND ks_members "${ks_member}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES ks_members)
      execute_process(COMMAND ${CMAKE_NM} --defined-only "${KS_PYTHON_SOURCE_ARCHIVE}"
                      OUTPUT_VARIABLE ks_nm ERROR_QUIET RESULT_VARIABLE ks_nm_rc)
      string(REPLACE "\n" ";" ks_nm "${ks_nm}")
      set(ks_inits "")
      set(ks_unfixable "${ks_members}")
      set(ks_in "")
      foreach(ks_line IN LISTS ks_nm)
        if(ks_line MATCHES "^([^ ]+\\.o):$")
          set(ks_in "${CMAKE_MATCH_1}")
        elseif(ks_line MATCHES " T (PyInit_[A-Za-z0-9_]+)$" AND ks_in IN_LIST ks_members)
          list(APPEND ks_inits "${CMAKE_MATCH_1}")
          list(REMOVE_ITEM ks_unfixable "${ks_in}")
        endif()
      endforeach()
      if(ks_members AND NOT ks_unfixable AND ks_nm_rc EQUAL 0)
        set(ks_dir "${CMAKE_BINARY_DIR}/ks_static_python")
        get_filename_component(ks_name "${KS_PYTHON_SOURCE_ARCHIVE}" NAME)
        set(ks_copy "${ks_dir}/${ks_name}")
        file(COPY_FILE "${KS_PYTHON_SOURCE_ARCHIVE}" "${ks_copy}")
        execute_process(COMMAND ${CMAKE_AR} d "${ks_copy}" ${ks_members} RESULT_VARIABLE ks_ar_rc)
        set(ks_stub_text "// Generated by cmake/KsStaticPython.cmake: the built-in modules left out of ${ks_copy}.\n#include <Python.h>\n")
        set(ks_missing "")
        foreach(ks_init IN LISTS ks_inits)
          string(REGEX REPLACE "^PyInit_" "" ks_mod "${ks_init}")
          list(APPEND ks_missing "${ks_mod}")
          string(APPEND ks_stub_text "PyMODINIT_FUNC ${ks_init}(void) {\n  PyErr_SetString(PyExc_ImportError, \"${ks_mod} is not built into kscope-runner: ${KS_PYTHON_SOURCE_ARCHIVE} lacks its parts\");\n  return nullptr;\n}\n")
        endforeach()
        file(WRITE "${ks_dir}/missing_builtins.cpp" "${ks_stub_text}")
        _ks_static_python_link("${ks_copy}" "${ks_dir}/missing_builtins.cpp" ks_ok ks_log)
        if(ks_ok AND ks_ar_rc EQUAL 0)
          set(KS_PYTHON_STATIC_ARCHIVE "${ks_copy}")
          set(KS_PYTHON_STATIC_STUB "${ks_dir}/missing_builtins.cpp")
          set(KS_PYTHON_MISSING_BUILTINS "${ks_missing}")
        endif()
      endif()
    endif()
    if(NOT KS_PYTHON_STATIC_ARCHIVE)
      string(REGEX MATCH "[^\n]*(error|undefined)[^\n]*" ks_first "${ks_log}")
      message(STATUS "${KS_PYTHON_SOURCE_ARCHIVE} does not link here (${ks_first}): kscope-runner links the shared libpython")
    endif()
    set(KS_PYTHON_STATIC_CHECKED "${ks_key}" CACHE INTERNAL "")
    set(KS_PYTHON_STATIC_RESULT_ARCHIVE "${KS_PYTHON_STATIC_ARCHIVE}" CACHE INTERNAL "")
    set(KS_PYTHON_STATIC_RESULT_STUB "${KS_PYTHON_STATIC_STUB}" CACHE INTERNAL "")
    set(KS_PYTHON_STATIC_RESULT_MISSING "${KS_PYTHON_MISSING_BUILTINS}" CACHE INTERNAL "")
  endif()
endif()
if(KS_PYTHON_STATIC_ARCHIVE AND KS_PYTHON_MISSING_BUILTINS)
  message(STATUS "Static libpython for kscope-runner: ${KS_PYTHON_STATIC_ARCHIVE} "
                 "(without the built-in modules ${KS_PYTHON_MISSING_BUILTINS}: ${KS_PYTHON_SOURCE_ARCHIVE} lacks their parts)")
elseif(KS_PYTHON_STATIC_ARCHIVE)
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
  if(KS_PYTHON_STATIC_STUB)
    target_sources(${target} PRIVATE "${KS_PYTHON_STATIC_STUB}")
    target_include_directories(${target} SYSTEM PRIVATE ${Python3_INCLUDE_DIRS})
  endif()
  target_link_options(${target} PRIVATE -no-pie "LINKER:--export-dynamic")
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE OFF KS_PYTHON_LINK static)
endfunction()
