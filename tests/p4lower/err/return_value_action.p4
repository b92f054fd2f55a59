#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	action a() {
		return 1;
	}
	apply { a(); }
}
