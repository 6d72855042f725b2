# SPDX-License-Identifier: MIT
# Khronos headers (Debian: opencl-headers) and the ICD loader used by tests
# (Debian: ocl-icd-opencl-dev). The driver itself never links the loader.
find_path(LANES_CL_INCLUDE_DIR CL/cl_icd.h REQUIRED)
add_library(lanes_cl_headers INTERFACE)
target_include_directories(lanes_cl_headers SYSTEM INTERFACE ${LANES_CL_INCLUDE_DIR})
target_compile_definitions(lanes_cl_headers INTERFACE
  CL_TARGET_OPENCL_VERSION=300
  CL_USE_DEPRECATED_OPENCL_1_0_APIS CL_USE_DEPRECATED_OPENCL_1_1_APIS
  CL_USE_DEPRECATED_OPENCL_1_2_APIS CL_USE_DEPRECATED_OPENCL_2_0_APIS
  CL_USE_DEPRECATED_OPENCL_2_1_APIS CL_USE_DEPRECATED_OPENCL_2_2_APIS)
add_library(lanes::cl_headers ALIAS lanes_cl_headers)

find_library(LANES_OPENCL_LOADER NAMES OpenCL REQUIRED)
