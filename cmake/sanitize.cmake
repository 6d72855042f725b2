# SPDX-License-Identifier: MIT
# LANES_SANITIZE: GCC sanitizers for the driver and every test program
# (scripts/test --sanitize=...): "address,undefined" or "thread". Any
# report fails the test that produced it (no recovery); the suppressions,
# each justified, are in tests/sanitizers/.
set(LANES_SANITIZE "" CACHE STRING "Sanitizers: address,undefined or thread (empty: none)")
if(LANES_SANITIZE)
  add_compile_options(-fsanitize=${LANES_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${LANES_SANITIZE})
endif()
