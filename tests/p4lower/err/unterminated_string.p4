#include <v1model.p4>
@name("unterminated)
control C();
