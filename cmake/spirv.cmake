# SPDX-License-Identifier: MIT
# SPIR-V input (docs/spirv.md): Debian's SPIRV-LLVM-Translator 15
# (llvm-spirv-15), run by the driver as a helper process; its path is built
# into the driver. Without it, clCreateProgramWithIL stays refused. Tests
# also make their SPIR-V with clang-15 (LLVM 15 bitcode for the translator)
# and check it with spirv-val, and assemble a module by hand with spirv-as;
# without them the SPIR-V tests say they skip.
find_program(LANES_LLVM_SPIRV NAMES llvm-spirv-15 HINTS /usr/lib/llvm-15/bin)
# The translator's library, whose files' identity is part of the disk cache's keys.
find_library(LANES_LLVM_SPIRV_LIB NAMES libLLVMSPIRVLib.so.15 LLVMSPIRVLib)
find_program(LANES_CLANG_15 NAMES clang-15 clang HINTS /usr/lib/llvm-15/bin NO_DEFAULT_PATH)
find_program(LANES_SPIRV_VAL spirv-val)
find_program(LANES_SPIRV_AS spirv-as)
if(NOT LANES_LLVM_SPIRV)
  message(STATUS "llvm-spirv-15 not found: SPIR-V programs (LANES_SPIRV=1) are unavailable")
endif()
