/* SPDX-License-Identifier: MIT */
/*
 * lanes_extensions.h embedded in the library for clang_bridge.cpp: its
 * bytes, a NUL (Clang's lexer wants one after the last byte), then the end
 * symbol. CMake passes the header's path as LANES_EXTENSIONS_HEADER.
 */
    .section .rodata.lanes_extensions,"a"
    .globl lanes_extensions_header
    .hidden lanes_extensions_header
lanes_extensions_header:
    .incbin LANES_EXTENSIONS_HEADER
    .byte 0
    .globl lanes_extensions_header_end
    .hidden lanes_extensions_header_end
lanes_extensions_header_end:
    .section .note.GNU-stack,"",@progbits
