# SPDX-License-Identifier: MIT
# Compiler flags shared by every target: warnings on, ccache when present.
find_program(LANES_CCACHE ccache)
if(LANES_CCACHE)
  set(CMAKE_C_COMPILER_LAUNCHER ${LANES_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${LANES_CCACHE})
endif()

option(LANES_WERROR "Treat warnings as errors" OFF)
add_compile_options(-Wall -Wextra)
if(LANES_WERROR)
  add_compile_options(-Werror)
endif()
# _GNU_SOURCE for sched_getaffinity, CPU_COUNT and friends.
add_compile_definitions(_GNU_SOURCE)
