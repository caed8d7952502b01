# Profile-guided optimization of xrlm (GCC), included by the top-level
# CMakeLists.txt once every target exists.
#
# XRLM_PGO (on by default in a Release build): before xrlm's code is
# compiled, a second build of it, instrumented (-fprofile-generate), is
# made under <build>/pgo/build and run over generated sessions
# (merge/pgo_train.sh); xrlm, the merge library, xrlm_util and
# xrlm_analysis are then compiled with what those runs counted
# (-fprofile-use): branches laid out as they go, hot loops unrolled. A
# 10^4-frame merge ran 5-11 % faster on the lent 16-CPU machine
# (bench/RESULTS.md, twenty-sixth session). The profile changes how the
# code is laid out, never what it computes: tests/merge/pgo_test.sh
# checks the outputs are the same.
#
# XRLM_PGO_GENERATE=DIR is how the outer build configures the training
# build: the same targets instrumented, their counts written under DIR,
# and the session generator built beside xrlm.

set(XRLM_PGO_TARGETS xrlm_util xrlm_merge xrlm_analysis xrlm)

if(XRLM_PGO_GENERATE)
  foreach(t ${XRLM_PGO_TARGETS})
    # prefix-path: the counts are named by object paths relative to the
    # build tree, so that the outer build (another tree) finds them.
    target_compile_options(${t} PRIVATE -fprofile-generate=${XRLM_PGO_GENERATE}
      -fprofile-prefix-path=${CMAKE_BINARY_DIR} -fprofile-update=prefer-atomic)
  endforeach()
  target_link_options(xrlm PRIVATE -fprofile-generate=${XRLM_PGO_GENERATE})
  add_executable(xrlm_pgo_gen ${PROJECT_SOURCE_DIR}/tests/merge/tm_gen_session.c)
  return()
endif()

if(CMAKE_BUILD_TYPE STREQUAL "Release" AND CMAKE_C_COMPILER_ID STREQUAL "GNU"
   AND NOT XRLM_SANITIZE AND NOT XRLM_FUZZ)
  set(XRLM_PGO_DEFAULT ON)
else()
  set(XRLM_PGO_DEFAULT OFF)
endif()
option(XRLM_PGO "Optimize xrlm with the profile of its own merges (GCC; default: Release builds)"
  ${XRLM_PGO_DEFAULT})
if(NOT XRLM_PGO)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "XRLM_PGO needs GCC, not ${CMAKE_C_COMPILER_ID}")
endif()

include(ExternalProject)
set(XRLM_PGO_DIR ${CMAKE_BINARY_DIR}/pgo)
string(TOUPPER "${CMAKE_BUILD_TYPE}" XRLM_PGO_CONFIG)
cmake_host_system_information(RESULT XRLM_PGO_JOBS QUERY NUMBER_OF_LOGICAL_CORES)
# BUILD_ALWAYS: an edited source is built and trained again; the training
# itself is skipped while the instrumented xrlm is older than its stamp.
ExternalProject_Add(xrlm_pgo_train
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  PREFIX ${XRLM_PGO_DIR}
  BINARY_DIR ${XRLM_PGO_DIR}/build
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
    -DCMAKE_C_FLAGS=${CMAKE_C_FLAGS}
    -DCMAKE_C_FLAGS_${XRLM_PGO_CONFIG}=${CMAKE_C_FLAGS_${XRLM_PGO_CONFIG}}
    -DXRLM_PGO=OFF
    -DXRLM_PGO_GENERATE=${XRLM_PGO_DIR}/profile
    -DXRLM_TESTS=OFF
    -DXRLM_BENCH=OFF
    -DXRLM_STATIC=${XRLM_STATIC}
    -DXRLM_WERROR=${XRLM_WERROR}
    -DDYGRAPHS_DIR=${DYGRAPHS_DIR}
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target xrlm xrlm_pgo_gen
    --parallel ${XRLM_PGO_JOBS}
  BUILD_ALWAYS ON
  INSTALL_COMMAND sh ${PROJECT_SOURCE_DIR}/merge/pgo_train.sh <BINARY_DIR>/merge/xrlm
    <BINARY_DIR>/xrlm_pgo_gen ${XRLM_PGO_DIR}/profile ${XRLM_PGO_DIR}/trained
  USES_TERMINAL_BUILD ON)

foreach(t ${XRLM_PGO_TARGETS})
  add_dependencies(${t} xrlm_pgo_train)
  # partial-training: code the training never ran (other subcommands) is
  # optimized as without a profile, not for size. No warning for a file
  # without counts: the merge library's files that only the layer links
  # (tests/merge/pgo_test.sh checks that xrlm's hot files have theirs).
  target_compile_options(${t} PRIVATE -fprofile-use=${XRLM_PGO_DIR}/profile
    -fprofile-prefix-path=${CMAKE_BINARY_DIR} -fprofile-partial-training -Wno-missing-profile)
  # Compiled again whenever the training ran again.
  get_target_property(srcs ${t} SOURCES)
  get_target_property(dir ${t} SOURCE_DIR)
  list(TRANSFORM srcs PREPEND ${dir}/ REGEX "^[^/]")
  set_source_files_properties(${srcs} TARGET_DIRECTORY ${t}
    PROPERTIES OBJECT_DEPENDS ${XRLM_PGO_DIR}/trained)
endforeach()
