// expect: bem::router: the router must opt in with `using router_concept = bem::router_t;`
// A router written against 0.1's opt-in: the old member name no longer opts in.
#include <bem/route/router.hpp>

struct old_router {
  using router_category = bem::router_t;
  bool insert(bem::identifier) { return true; }
  bool erase(bem::identifier) { return true; }
  bool update(bem::identifier, bem::identifier) { return true; }
  bool contains(bem::identifier) const { return false; }
  std::size_t size() const { return 0; }
  void query(bem::identifier, const bem::route_filter&, std::size_t, bem::route_result&) const {}
  bem::occupancy_stats occupancy() const { return {}; }
};

static_assert(bem::assert_router<old_router>());
