#include <v1model.p4>
control C(inout standard_metadata_t sm) {
	counter(16, CounterType.packets) hits;
	apply {
		hits.increment(1);
	}
}
