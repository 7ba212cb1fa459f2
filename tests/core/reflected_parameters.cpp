// Parameter structs declared once (bem/harness/reflected_parameters.hpp):
// reading with defaults (fixed and derived), the checks and their messages,
// the effective values, the schema's completeness check and the
// documentation rows. Hana values are never compared with CHECK(a == b)
// (ambiguous with doctest in C++20): the fields are plain values.
#include <doctest/doctest.h>
#include <bem/harness/reflected_parameters.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// The example of docs/architecture.md and of the header (kept as written there).
// clang-format off
struct window_parameters {
  BOOST_HANA_DEFINE_STRUCT(window_parameters, (std::string, shape), (int, width),
                           (std::vector<std::int64_t>, lengths));
  static void describe(bem::parameter_schema<window_parameters>& s) {
    s("shape", "flat").one_of({"flat", "ramp"}).doc("how the window weighs positions");
    s("width", [](const window_parameters& p) { return p.shape == "ramp" ? 8 : 4; }).in(1, 64).doc("positions");
    s("lengths", {16, 32}).one_of({16, 32, 64}).doc("test lengths");
  }
};
// clang-format on

struct every_type {
  BOOST_HANA_DEFINE_STRUCT(every_type, (bool, flag), (std::int64_t, big), (double, rate), (std::string, name),
                           (std::vector<std::int64_t>, sizes), (std::vector<std::string>, names));
  static void describe(bem::parameter_schema<every_type>& s) {
    s("flag", true).doc("a switch");
    s("big", std::int64_t{1} << 40).in(1, std::int64_t{1} << 41).doc("a large count");
    s("rate", 0.5).in(0.0, 1.0).doc("a share");
    s("name", "x").doc("free text");
    s("sizes", {1, 2}).in(1, 8).doc("small sizes");
    s("names", {"a"}).one_of({"a", "b"}).doc("some of a, b");
  }
};

struct plain {
  BOOST_HANA_DEFINE_STRUCT(plain, (int, n));
  static void describe(bem::parameter_schema<plain>& s) { s("n", 3).doc("n"); }
};

struct bem_test_real_range {
  BOOST_HANA_DEFINE_STRUCT(bem_test_real_range, (double, beta));
  static void describe(bem::parameter_schema<bem_test_real_range>& s) { s("beta", 0.9).in(0, 0.999999).doc("b"); }
};

struct missing_rule {
  BOOST_HANA_DEFINE_STRUCT(missing_rule, (int, a), (int, b));
  static void describe(bem::parameter_schema<missing_rule>& s) { s("a", 1).doc("a"); }
};
struct stray_rule {
  BOOST_HANA_DEFINE_STRUCT(stray_rule, (int, a));
  static void describe(bem::parameter_schema<stray_rule>& s) {
    s("a", 1).doc("a");
    s("c", 1).doc("no such field");
  }
};
struct mistyped_default {
  BOOST_HANA_DEFINE_STRUCT(mistyped_default, (int, a));
  static void describe(bem::parameter_schema<mistyped_default>& s) { s("a", "one").doc("a"); }
};
struct default_out_of_range {
  BOOST_HANA_DEFINE_STRUCT(default_out_of_range, (int, a));
  static void describe(bem::parameter_schema<default_out_of_range>& s) { s("a", 0).in(1, 4).doc("a"); }
};

}  // namespace

TEST_CASE("a parameter struct reads its fields with fixed and derived defaults") {
  bem::parameters given;
  given.set("shape", std::string("ramp"));
  const auto w = bem::read_parameters<window_parameters>(given);
  CHECK(w.width == 8);  // a default may depend on the fields declared before it
  CHECK(w.shape == "ramp");
  CHECK(w.lengths == std::vector<std::int64_t>{16, 32});
  given.check_all_used();
  // Every field read went through bem::parameters: the records' configuration.
  CHECK(bem::parameters_to_json(given.effective()) == R"({"lengths":[16,32],"shape":"ramp","width":8})");

  bem::parameters flat;
  flat.set("width", std::int64_t{5});
  const auto f = bem::read_parameters<window_parameters>(flat);
  CHECK(f.width == 5);  // given values win over derived defaults
  CHECK(f.shape == "flat");
}

TEST_CASE("reflected checks name the parameter: ranges, choices, list elements, types") {
  const auto fails = [](const char* key, bem::parameter_value v, const std::string& message) {
    bem::parameters p;
    p.set(key, std::move(v));
    CHECK_THROWS_WITH_AS(bem::read_parameters<window_parameters>(p), message.c_str(), bem::parameter_error);
  };
  fails("shape", std::string("round"), "parameter 'shape': must be one of {flat, ramp}, got \"round\"");
  fails("width", std::int64_t{65}, "parameter 'width': must lie in [1, 64], got 65");
  fails("width", std::int64_t{0}, "parameter 'width': must lie in [1, 64], got 0");
  fails("lengths", std::vector<std::int64_t>{16, 48}, "parameter 'lengths': each must be one of {16, 32, 64}, got 48");
  fails("width", std::string("wide"), "parameter 'width': expected an integer");

  const auto fails_every = [](const char* key, bem::parameter_value v, const std::string& message) {
    bem::parameters p;
    p.set(key, std::move(v));
    CHECK_THROWS_WITH_AS(bem::read_parameters<every_type>(p), message.c_str(), bem::parameter_error);
  };
  fails_every("sizes", std::vector<std::int64_t>{1, 9}, "parameter 'sizes': each must lie in [1, 8], got 9");
  fails_every("names", std::vector<std::string>{"a", "c"}, "parameter 'names': each must be one of {a, b}, got \"c\"");
  fails_every("rate", 1.5, "parameter 'rate': must lie in [0.000000, 1.000000], got 1.500000");
  fails_every("flag", std::int64_t{1}, "parameter 'flag': expected a Boolean");

  bem::parameters ok;
  ok.set("big", std::int64_t{1} << 41);  // bounds are inclusive, beyond int
  ok.set("rate", std::int64_t{1});       // an integer is a fine real
  const auto e = bem::read_parameters<every_type>(ok);
  CHECK(e.big == std::int64_t{1} << 41);
  CHECK(e.rate == 1.0);
  CHECK(e.flag);
  CHECK(e.names == std::vector<std::string>{"a"});
}

TEST_CASE("an int field refuses values beyond int without a range of its own") {
  bem::parameters p;
  p.set("n", std::int64_t{1} << 40);
  CHECK_THROWS_WITH_AS(bem::read_parameters<plain>(p),
                       doctest::Contains("parameter 'n': must lie in [-2147483648, 2147483647]"), bem::parameter_error);
}

TEST_CASE("a schema must give every field exactly one rule, of the field's type") {
  bem::parameters p;
  CHECK_THROWS_WITH_AS(bem::read_parameters<missing_rule>(p), doctest::Contains("field 'b' needs exactly one rule"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(bem::read_parameters<stray_rule>(p), doctest::Contains("rule for 'c', which is no field"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(bem::read_parameters<mistyped_default>(p), doctest::Contains("'a': its default does not have"),
                       std::logic_error);
  // A default that breaks its own rule is found as soon as it is documented.
  CHECK_THROWS_WITH_AS(bem::parameter_docs<default_out_of_range>(), "parameter 'a': must lie in [1, 4], got 0",
                       bem::parameter_error);
}

TEST_CASE("documentation rows come from the same declaration") {
  const auto rows = bem::parameter_docs<window_parameters>();
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].name == "shape");
  CHECK(rows[0].type == "string");
  CHECK(rows[0].default_json == "\"flat\"");
  CHECK_FALSE(rows[0].derived);
  CHECK(rows[0].accepts == "one of {flat, ramp}");
  CHECK(rows[0].doc == "how the window weighs positions");
  CHECK(rows[1].name == "width");
  CHECK(rows[1].default_json == "4");  // with shape at its default
  CHECK(rows[1].derived);
  CHECK(rows[1].accepts == "[1, 64]");
  CHECK(rows[2].type == "list of integers");
  CHECK(rows[2].default_json == "[16,32]");
  const auto every = bem::parameter_docs<every_type>();
  CHECK(every[0].type == "Boolean");
  CHECK(every[0].default_json == "true");
  CHECK(every[1].accepts == "[1, 2199023255552]");
  CHECK(every[2].accepts == "[0, 1]");
  CHECK(bem::parameter_docs<bem_test_real_range>()[0].accepts == "[0, 0.999999]");  // shortest form
  CHECK(every[2].type == "number");
  CHECK(every[5].type == "list of strings");
  CHECK(bem::parameter_docs_json(bem::parameter_structs<window_parameters>{}) ==
        R"([{"name":"shape","type":"string","default":"flat","derived":false,"accepts":"one of {flat, ramp}",)"
        R"("doc":"how the window weighs positions"},{"name":"width","type":"integer","default":4,"derived":true,)"
        R"("accepts":"[1, 64]","doc":"positions"},{"name":"lengths","type":"list of integers","default":[16,32],)"
        R"("derived":false,"accepts":"one of {16, 32, 64}","doc":"test lengths"}])");
}
