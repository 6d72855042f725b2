# SPDX-License-Identifier: MIT
# When `cmake --install` runs as root, also register the ICD system-wide in
# /etc/OpenCL/vendors (where every loader looks), whatever the prefix.
option(LANES_REGISTER_ICD "Register lanes.icd in /etc/OpenCL/vendors when installing as root" ON)
if(LANES_REGISTER_ICD)
  set(lanes_icd_file "${CMAKE_BINARY_DIR}/icd/install/lanes.icd")
  install(CODE "
    execute_process(COMMAND id -u OUTPUT_VARIABLE lanes_uid OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(lanes_uid STREQUAL \"0\")
      file(INSTALL \"${lanes_icd_file}\" DESTINATION \"\$ENV{DESTDIR}/etc/OpenCL/vendors\")
    else()
      message(STATUS \"Not root: lanes.icd is only under the prefix (see OCL_ICD_VENDORS in the README)\")
    endif()
  ")
endif()
