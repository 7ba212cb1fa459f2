// Result records on disk: the JSON-lines appender, the reader's error and
// torn-line rules, and run identifiers.
#include <doctest/doctest.h>
#include <metrics/records.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

using namespace bem::metrics;
namespace fs = std::filesystem;

namespace {

/// A fresh directory, removed with everything in it at the end of the test.
struct scratch_dir {
  fs::path path;
  scratch_dir() {
    std::string pattern = (fs::temp_directory_path() / "bem-records-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~scratch_dir() { fs::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The message read_jsonl throws for `path`, or "" when it throws nothing.
std::string read_error(const std::string& path) {
  try {
    read_jsonl(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("hex_id is FNV-1a 64 as 16 lower-case hex digits, leading zeros kept") {
  // Published FNV-1a 64 values; a run identifier must be the same on every machine.
  CHECK(hex_id("") == "cbf29ce484222325");
  CHECK(hex_id("a") == "af63dc4c8601ec8c");
  CHECK(hex_id("foobar") == "85944171f73967e8");
  CHECK(hex_id("10") == "07f89207b4ba08a4");
}

TEST_CASE("the appender writes one compact line per record, appends or truncates as asked") {
  scratch_dir dir;
  const std::string path = dir.file("results.jsonl");
  {
    jsonl_appender out(path, true);
    out.append(json{{"metric", "accuracy"}, {"value", 0.5}});
    out.append(json{{"b", 2}, {"a", 1}});
  }
  // Keys sorted, no spaces, newline-terminated: files are byte-stable.
  CHECK(read_text(path) == "{\"metric\":\"accuracy\",\"value\":0.5}\n{\"a\":1,\"b\":2}\n");

  {
    jsonl_appender out(path, false);  // --resume: what is there stays
    out.append(json{{"c", 3}});
  }
  const auto records = read_jsonl(path);
  REQUIRE(records.size() == 3);
  CHECK(records[0]["metric"] == "accuracy");
  CHECK(records[1]["b"] == 2);
  CHECK(records[2]["c"] == 3);

  {
    jsonl_appender out(path, true);  // a fresh run replaces the file
    out.append(json{{"d", 4}});
  }
  CHECK(read_text(path) == "{\"d\":4}\n");

  // Text that is not valid UTF-8 is written with replacement characters, not refused.
  {
    jsonl_appender out(path, true);
    out.append(json{{"error", std::string("bad \xff byte")}});
  }
  REQUIRE(read_jsonl(path).size() == 1);
  CHECK(read_jsonl(path)[0]["error"] == "bad \xef\xbf\xbd byte");
}

TEST_CASE("the appender names a path it cannot open") {
  scratch_dir dir;
  const std::string path = dir.file("missing/results.jsonl");
  try {
    jsonl_appender out(path, true);
    FAIL("opened a file in a directory that does not exist");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find(path + ": cannot open for writing") == 0);
  }
}

TEST_CASE("read_jsonl skips empty lines and names the file and line of a malformed record") {
  scratch_dir dir;
  const std::string path = dir.file("results.jsonl");

  write_text(path, "{\"a\":1}\n\n{\"a\":2}\n");
  const auto ok = read_jsonl(path);
  REQUIRE(ok.size() == 2);
  CHECK(ok[1]["a"] == 2);

  write_text(path, "{\"a\":1}\n{\"a\":\n{\"a\":3}\n");
  CHECK(read_error(path).find(path + ":2: malformed record") == 0);

  // The last line is complete (it ends in a newline) and malformed: damage,
  // not a crash mid-write, so it is reported, not dropped.
  write_text(path, "{\"a\":1}\n{\"a\":2}\n{oops}\n");
  CHECK(read_error(path).find(path + ":3: malformed record") == 0);

  CHECK(read_error(dir.file("absent.jsonl")) == dir.file("absent.jsonl") + ": cannot open");

  // Found by tests/fuzz (fuzz_records): a number beyond double is the
  // parser's out_of_range, not a parse_error, and escaped without the file.
  write_text(path, "{\"a\":1}\n{\"value\":0.294E5690924971961}\n");
  CHECK(read_error(path).find(path + ":2: malformed record") == 0);
}

TEST_CASE("read_jsonl drops a torn last line and says so") {
  scratch_dir dir;
  const std::string path = dir.file("results.jsonl");
  write_text(path, "{\"a\":1}\n{\"a\":2}\n{\"a\":3,\"val");
  bool dropped = false;
  const auto records = read_jsonl(path, &dropped);
  CHECK(dropped);
  REQUIRE(records.size() == 2);
  CHECK(records[1]["a"] == 2);

  // A complete file reports nothing dropped, with or without records.
  write_text(path, "{\"a\":1}\n");
  CHECK(read_jsonl(path, &dropped).size() == 1);
  CHECK_FALSE(dropped);
  write_text(path, "");
  CHECK(read_jsonl(path, &dropped).empty());
  CHECK_FALSE(dropped);

  // A last line without its newline that still parses is kept.
  write_text(path, "{\"a\":1}\n{\"a\":2}");
  CHECK(read_jsonl(path, &dropped).size() == 2);
  CHECK_FALSE(dropped);
}
