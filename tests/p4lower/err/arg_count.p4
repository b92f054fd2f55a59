#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	apply {
		mark_to_drop(sm, sm);
	}
}
