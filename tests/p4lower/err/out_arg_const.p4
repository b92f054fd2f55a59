#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	register<bit<32>>(16) r;
	const bit<32> K = 5;
	apply {
		r.read(K, 0);
	}
}
