#include <v1model.p4>
struct s_t {
	ethernet_t eth;
}
