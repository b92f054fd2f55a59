#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	register<bit<32>, bit<8>, bit<8>>(16) r;
	apply { }
}
