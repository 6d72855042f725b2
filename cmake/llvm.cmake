# SPDX-License-Identifier: MIT
# LLVM and Clang 19 through their CMake packages (Debian: llvm-19-dev,
# libclang-cpp19-dev). Defines lanes::llvm, linked as the shared libLLVM.
# LLVM's package accepts only its exact major.minor, so ask for none and check.
find_package(LLVM REQUIRED CONFIG
  HINTS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "Lanes needs LLVM 19, found ${LLVM_PACKAGE_VERSION}")
endif()
find_package(Clang REQUIRED CONFIG
  HINTS ${LLVM_INSTALL_PREFIX}/lib/cmake/clang NO_DEFAULT_PATH)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_INSTALL_PREFIX}")

add_library(lanes_llvm INTERFACE)
target_include_directories(lanes_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(lanes_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(lanes_llvm INTERFACE LLVM)
add_library(lanes::llvm ALIAS lanes_llvm)
