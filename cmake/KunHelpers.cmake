# kun_add_test(NAME LABEL label SOURCES ... LIBS ...)
# One test executable per area, registered with ctest as one test under LABEL. Not one
# ctest entry per gtest case: under the sanitizers each process start costs about a
# second, which for ~800 cases was half of the whole run. `ctest -V` or the executable
# itself (--gtest_filter) shows the cases; a failure prints them (outputOnFailure).
function(kun_add_test name)
  cmake_parse_arguments(T "" "LABEL" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} rapidcheck rapidcheck_gtest GTest::gtest GTest::gmock GTest::gtest_main)
  target_precompile_headers(${name} REUSE_FROM kun_pch)
  # From the build root: there a __FILE__ made relative (ccache with base_dir) still
  # leads to the sources, which some tests read (scenarios, the CRD).
  add_test(NAME ${name} COMMAND ${name} --gtest_brief=1 WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(${name} PROPERTIES LABELS ${T_LABEL})
endfunction()


# kun_area_tests(LABEL LIBS...): one executable `<label>_<folder>` from every .cpp in the
# calling folder, its cases registered under LABEL. Does nothing while the folder is empty.
function(kun_area_tests label)
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(NOT _srcs)
    return()
  endif()
  get_filename_component(_area ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  kun_add_test(${label}_${_area} LABEL ${label} SOURCES ${_srcs} LIBS ${ARGN})
endfunction()

# Adds every subfolder that has a CMakeLists.txt.
function(kun_subdirs)
  file(GLOB _children RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT _children)
  foreach(_c ${_children})
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${_c} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_c}/CMakeLists.txt)
      add_subdirectory(${_c})
    endif()
  endforeach()
endfunction()

# kun_library(NAME [DEPS ...]): a static library from every .cpp in the calling folder
# except *_main.cpp,
# with the project root as include path. AGGREGATE names the INTERFACE library
# (kun_core, kun_fakeapi, kun_harness) it belongs to.
function(kun_library name)
  cmake_parse_arguments(L "" "AGGREGATE" "DEPS" ${ARGN})
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  list(FILTER _srcs EXCLUDE REGEX "_main\\.cpp$")  # programs' mains are not library code
  if(NOT _srcs)
    return()  # a folder whose first source is not written yet
  endif()
  add_library(${name} STATIC ${_srcs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC nlohmann_json::nlohmann_json fmt::fmt Threads::Threads ${L_DEPS})
  target_precompile_headers(${name} REUSE_FROM kun_pch)
  if(L_AGGREGATE)
    target_link_libraries(${L_AGGREGATE} INTERFACE ${name})
  endif()
endfunction()
