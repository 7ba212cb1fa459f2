#include <bem/parameters.hpp>
#include <bem/toml_parameters.hpp>
#include <doctest/doctest.h>

TEST_CASE("parameters record effective values and reject unknown keys") {
  auto p = bem::parameters_from_toml("length = 32\nrate = 1\nnames = ['a', 'b']\n", "test.toml");
  CHECK(p.get_int("length", 8) == 32);
  CHECK(p.get_double("rate", 0.5) == 1.0);  // an integer is a fine real
  CHECK(p.get_int("depth", 4) == 4);        // default recorded too
  CHECK(p.get_string_list("names", {}) == std::vector<std::string>{"a", "b"});
  p.check_all_used();
  CHECK(bem::parameters_to_json(p.effective()) == R"({"depth":4,"length":32,"names":["a","b"],"rate":1})");
}

TEST_CASE("parameter errors name the key and the problem") {
  auto p = bem::parameters_from_toml("length = 'x'\nextra = 1\n");
  CHECK_THROWS_WITH_AS(p.get_int("length", 1), "parameter 'length': expected an integer", bem::parameter_error);
  CHECK_THROWS_WITH_AS(p.check_all_used(), doctest::Contains("'extra': unknown parameter"), bem::parameter_error);
  auto q = bem::parameters_from_toml("k = 70\n");
  CHECK_THROWS_WITH_AS(q.get_int_in("k", 1, 1, 64), "parameter 'k': must lie in [1, 64], got 70", bem::parameter_error);
  CHECK_THROWS_WITH_AS(q.get_choice("mode", "x", {"a", "b"}), doctest::Contains("must be one of {a, b}"),
                       bem::parameter_error);
}

TEST_CASE("TOML syntax errors carry source, line and column") {
  CHECK_THROWS_WITH_AS(bem::parameters_from_toml("a = 1\nb = = 2\n", "suite.toml"), doctest::Contains("suite.toml:2:"),
                       bem::parameter_error);
}

TEST_CASE("parameters round-trip through TOML") {
  bem::parameters p;
  p.set("a", std::int64_t{3});
  p.set("b", std::vector<std::int64_t>{1, 2});
  p.set("c", std::string("q\"x"));
  p.set("d", 0.25);
  auto back = bem::parameters_from_toml(bem::parameters_to_toml(p.given()));
  CHECK(back.given() == p.given());
}
