# expect: unterminated_string.pasm:2:9: error: unterminated string
program "abc;
