# expect: nul_byte.pasm:3:1: error: unexpected byte 0x01
program "x";

