# expect: empty_file.pasm:1:1: error: the program has no parser state

