#include <v1model.p4>
const bit<8> LIMIT = 10;
control C(inout standard_metadata_t sm) {
	apply {
		LIMIT = 11;
	}
}
