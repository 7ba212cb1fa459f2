#include <bem/harness/parameters.hpp>
#include <bem/plugin/toml_parameters.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

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

TEST_CASE("ranges refuse NaN, single values stand for one-element lists, and a wrong type is named") {
  bem::parameters p;
  p.set("rate", std::nan(""));
  p.set("low", 0.5);
  p.set("one", std::int64_t{7});
  p.set("name", std::string("x"));
  p.set("flag", std::int64_t{1});
  CHECK_THROWS_WITH_AS(p.get_double_in("rate", 0.1, 0.0, 1.0), doctest::Contains("'rate': must lie in [0.000000, 1.000000]"),
                       bem::parameter_error);
  CHECK_THROWS_WITH_AS(p.get_double_in("low", 0.9, 0.75, 1.0), doctest::Contains("got 0.5"), bem::parameter_error);
  CHECK(p.get_int_list("one", {1, 2}) == std::vector<std::int64_t>{7});
  CHECK(p.get_string_list("name", {}) == std::vector<std::string>{"x"});
  CHECK_THROWS_WITH_AS(p.get_bool("flag", false), "parameter 'flag': expected a Boolean", bem::parameter_error);
  CHECK(p.get_int_in("absent", 64, 1, 64) == 64);  // both bounds are inclusive
  CHECK(p.get_int_in("one", 1, 7, 7) == 7);
}

TEST_CASE("the configuration's JSON text: escapes, shortest numbers, null for non-finite values") {
  std::map<std::string, bem::parameter_value> v;
  v["text"] = std::string("q\"b\\n\nt\tr\r\x01\x1f\x7f");
  v["reals"] = std::vector<double>{0.1, 1e300, -0.0, std::numeric_limits<double>::infinity()};
  v["nan"] = std::nan("");
  v["on"] = true;
  v["ints"] = std::vector<std::int64_t>{-3, 0};
  v["names"] = std::vector<std::string>{"a\"", ""};
  CHECK(bem::parameters_to_json(v) ==
        "{\"ints\":[-3,0],\"names\":[\"a\\\"\",\"\"],\"nan\":null,\"on\":true,"
        "\"reals\":[0.1,1e+300,-0,null],\"text\":\"q\\\"b\\\\n\\nt\\tr\\r\\u0001\\u001f\x7f\"}");
}

TEST_CASE("TOML values: mixed numeric lists become reals, other values are refused where they stand") {
  auto p = bem::parameters_from_toml("mix = [1, 2.5]\nempty = []\n", "p.toml");
  CHECK(std::get<std::vector<double>>(p.given().at("mix")) == std::vector<double>{1.0, 2.5});
  CHECK(std::get<std::vector<std::int64_t>>(p.given().at("empty")).empty());
  CHECK_THROWS_WITH_AS(bem::parameters_from_toml("a = 1\nbad = [1, 'x']\n", "p.toml"),
                       "parameter 'bad': at p.toml:2:7: a list must hold only integers, only numbers or only strings",
                       bem::parameter_error);
  CHECK_THROWS_WITH_AS(bem::parameters_from_toml("t = { x = 1 }\n", "p.toml"),
                       "parameter 't': at p.toml:1:5: expected a number, Boolean, string or list", bem::parameter_error);
}
