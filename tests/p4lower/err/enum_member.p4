#include <v1model.p4>
enum Color { Red, Green }
control C(inout standard_metadata_t sm) {
	apply {
		Color c = Color.Blue;
	}
}
