// Tests of plugins/rust_cargo/http_client against tests/rust/fake_model_server.py,
// started per test case (FAKE_MODEL_SERVER is its path, defined by the build).
#include "http_client.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef FAKE_MODEL_SERVER
#error "define FAKE_MODEL_SERVER as the path of tests/rust/fake_model_server.py"
#endif

using namespace rust_cargo;
using nlohmann::json;

namespace {

// Runs `python3 FAKE_MODEL_SERVER` for the lifetime of the object. The child
// dies with the test process (PR_SET_PDEATHSIG) even if the test crashes; the
// destructor kills and reaps it, so no zombie or orphan remains.
class fake_server {
public:
    fake_server() {
        int fds[2];
        if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
        const pid_t parent = getpid();
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(127);
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]);
            close(fds[1]);
            execlp("python3", "python3", FAKE_MODEL_SERVER, static_cast<char*>(nullptr));
            _exit(127);
        }
        close(fds[1]);
        std::string line;
        // Generous: Python starts in a tenth of a second, but the machine may be busy.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (line.find('\n') == std::string::npos) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            pollfd p{fds[0], POLLIN, 0};
            char buf[64];
            ssize_t got = 0;
            if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0 ||
                (got = read(fds[0], buf, sizeof buf)) <= 0) {
                close(fds[0]);
                stop();
                throw std::runtime_error("fake model server did not print its port");
            }
            line.append(buf, static_cast<std::size_t>(got));
        }
        close(fds[0]);  // the server prints nothing more
        port_ = std::stoi(line);
    }
    ~fake_server() { stop(); }
    fake_server(const fake_server&) = delete;
    fake_server& operator=(const fake_server&) = delete;

    std::string url(const std::string& prefix = "") const {
        return "http://127.0.0.1:" + std::to_string(port_) + prefix;
    }

    // The requests the server recorded, oldest first.
    json requests() const {
        http_client c(http_options{url(), "", 5, 5, 0, 0.01, 0.01});
        return c.post_json("/_requests", json::object())["requests"];
    }

private:
    void stop() {
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
            pid_ = -1;
        }
    }
    pid_t pid_ = -1;
    int port_ = 0;
};

// Fast retries for tests.
http_options opts(const std::string& base_url, int max_retries = 3) {
    http_options o;
    o.base_url = base_url;
    o.connect_timeout_s = 2;
    o.request_timeout_s = 5;
    o.max_retries = max_retries;
    o.backoff_initial_s = 0.01;
    o.backoff_max_s = 0.05;
    return o;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The message of the http_error that f throws ("" and a failed check if none).
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const http_error& e) {
        return e.what();
    }
    FAIL("no http_error thrown");
    return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("completions: sampling fields sent, texts in index order, token count") {
    fake_server server;
    http_client client(opts(server.url()));
    sampling s;
    s.n = 3;
    s.temperature = 0.8;
    s.top_p = 0.95;
    s.max_tokens = 64;
    s.stop = {"\nfn ", "\n}"};
    s.seed = 42;
    const auto batch = openai_completions(client, "echo", "// header\nfn solve() {", s);

    REQUIRE(batch.samples.size() == 3);
    for (int i = 0; i < 3; ++i) {
        CHECK(batch.samples[i].text == "fn solve() {|i=" + std::to_string(i) + "|seed=42");
        CHECK(batch.samples[i].finish_reason == "stop");
    }
    REQUIRE(batch.completion_tokens.has_value());
    CHECK(*batch.completion_tokens == 21);
    CHECK(batch.requests == 1);
    CHECK(batch.seconds > 0);
    CHECK(client.attempts_last_call() == 1);
    CHECK(client.waits_last_call().empty());

    const json reqs = server.requests();
    REQUIRE(reqs.size() == 1);
    CHECK(reqs[0]["path"] == "/v1/completions");
    CHECK(reqs[0]["headers"]["content-type"] == "application/json");
    CHECK(reqs[0]["headers"]["authorization"].is_null());
    const json& b = reqs[0]["body"];
    CHECK(b["model"] == "echo");
    CHECK(b["prompt"] == "// header\nfn solve() {");
    CHECK(b["n"] == 3);
    CHECK(b["max_tokens"] == 64);
    CHECK(b["temperature"].get<double>() == doctest::Approx(0.8));
    CHECK(b["top_p"].get<double>() == doctest::Approx(0.95));
    CHECK(b["stop"] == json::array({"\nfn ", "\n}"}));
    CHECK(b["seed"] == 42);
}

TEST_CASE("completions: stop and seed omitted when unset") {
    fake_server server;
    http_client client(opts(server.url()));
    const auto batch = openai_completions(client, "echo", "x", sampling{});
    REQUIRE(batch.samples.size() == 1);
    CHECK(batch.samples[0].text == "x|i=0|seed=none");
    const json b = server.requests()[0]["body"];
    CHECK_FALSE(b.contains("stop"));
    CHECK_FALSE(b.contains("seed"));
    CHECK(b["n"] == 1);
}

TEST_CASE("completions: a server that ignores n is asked again for the rest") {
    fake_server server;
    http_client client(opts(server.url()));
    sampling s;
    s.n = 3;
    s.seed = 10;
    const auto batch = openai_completions(client, "fewer", "p", s);
    REQUIRE(batch.samples.size() == 3);
    CHECK(batch.requests == 3);
    CHECK(batch.samples[0].text == "p|i=0|seed=10");
    CHECK(batch.samples[1].text == "p|i=0|seed=11");
    CHECK(batch.samples[2].text == "p|i=0|seed=12");
    CHECK(batch.completion_tokens == 21);
    const json reqs = server.requests();
    REQUIRE(reqs.size() == 3);
    CHECK(reqs[0]["body"]["n"] == 3);
    CHECK(reqs[1]["body"]["n"] == 2);
    CHECK(reqs[2]["body"]["n"] == 1);
}

TEST_CASE("chat: system and user messages, code block extracted end to end") {
    fake_server server;
    http_client client(opts(server.url()));
    sampling s;
    s.n = 2;
    s.max_tokens = 100;
    auto batch = openai_chat(client, "echo", "You write Rust.", "Task:\nadd two numbers", s);
    REQUIRE(batch.samples.size() == 2);
    CHECK(batch.samples[0].text == "You write Rust.|add two numbers|i=0|seed=none");
    CHECK(batch.samples[1].text == "You write Rust.|add two numbers|i=1|seed=none");
    CHECK(batch.completion_tokens == 14);

    json reqs = server.requests();
    REQUIRE(reqs.size() == 1);
    CHECK(reqs[0]["path"] == "/v1/chat/completions");
    const json& b = reqs[0]["body"];
    CHECK(b["messages"] == json::array({{{"role", "system"}, {"content", "You write Rust."}},
                                        {{"role", "user"}, {"content", "Task:\nadd two numbers"}}}));
    CHECK(b["max_tokens"] == 100);
    CHECK(b["n"] == 2);

    batch = openai_chat(client, "chat-codeblock", "", "add", sampling{});
    REQUIRE(batch.samples.size() == 1);
    CHECK(extract_code_block(batch.samples[0].text) == "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    reqs = server.requests();
    REQUIRE(reqs.size() == 2);
    CHECK(reqs[1]["body"]["messages"] == json::array({{{"role", "user"}, {"content", "add"}}}));
}

TEST_CASE("infill: stop fields sent as null are not said, not an error") {
    fake_server server;
    http_client client(opts(server.url("/b/null-stops")));
    const auto batch = llama_infill(client, "let x =", "\n", sampling{});
    REQUIRE(batch.samples.size() == 1);
    CHECK(batch.samples[0].text == "let x =<FILL>|seed=none");
    CHECK(batch.samples[0].finish_reason == "");
    CHECK(batch.completion_tokens == 5);
}

TEST_CASE("infill: request fields, one request per sample, result") {
    fake_server server;
    http_client client(opts(server.url()));
    sampling s;
    s.n = 2;
    s.temperature = 0.2;
    s.top_p = 0.9;
    s.max_tokens = 32;
    s.stop = {"\n\n"};
    s.seed = 7;
    const auto batch = llama_infill(client, "fn f() {\n    let x =", "\n}\n", s);
    REQUIRE(batch.samples.size() == 2);
    CHECK(batch.samples[0].text == "    let x =<FILL>|seed=7");
    CHECK(batch.samples[1].text == "    let x =<FILL>|seed=8");
    CHECK(batch.samples[0].finish_reason == "stop");
    CHECK(batch.completion_tokens == 10);
    CHECK(batch.requests == 2);

    const json reqs = server.requests();
    REQUIRE(reqs.size() == 2);
    CHECK(reqs[0]["path"] == "/infill");
    const json& b = reqs[0]["body"];
    CHECK(b["input_prefix"] == "fn f() {\n    let x =");
    CHECK(b["input_suffix"] == "\n}\n");
    CHECK(b["n_predict"] == 32);
    CHECK(b["temperature"].get<double>() == doctest::Approx(0.2));
    CHECK(b["top_p"].get<double>() == doctest::Approx(0.9));
    CHECK(b["stop"] == json::array({"\n\n"}));
    CHECK(b["seed"] == 7);
    CHECK(reqs[1]["body"]["seed"] == 8);
}

TEST_CASE("retries: success after two 503s") {
    fake_server server;
    http_client client(opts(server.url()));
    const auto batch = openai_completions(client, "fail-twice-503", "a", sampling{});
    REQUIRE(batch.samples.size() == 1);
    CHECK(client.attempts_last_call() == 3);
    CHECK(client.waits_last_call() == std::vector<double>{0.01, 0.02});  // opts(): 0.01 s, doubling
    CHECK(batch.requests == 1);
    CHECK(server.requests().size() == 3);
}

TEST_CASE("retries: 429 with Retry-After is honoured") {
    fake_server server;
    auto o = opts(server.url());
    o.backoff_max_s = 2;  // the cap must allow the server's 1 s
    http_client client(o);
    const auto start = std::chrono::steady_clock::now();
    const auto batch = openai_completions(client, "429-retry-after", "a", sampling{});
    const double elapsed = seconds_since(start);
    REQUIRE(batch.samples.size() == 1);
    CHECK(client.attempts_last_call() == 2);
    CHECK(client.waits_last_call() == std::vector<double>{1.0});
    // ... and slept it: a lower bound, which a busy machine only lengthens.
    CHECK(elapsed >= 0.95);
    CHECK(batch.seconds >= 0.95);
}

TEST_CASE("retries: Retry-After is capped at backoff_max_s") {
    // A server asking for long waits must not stall the run: the cap wins.
    fake_server server;
    auto o = opts(server.url());
    o.backoff_max_s = 0.05;
    http_client client(o);
    const auto batch = openai_completions(client, "429-retry-after-30", "a", sampling{});
    REQUIRE(batch.samples.size() == 1);
    CHECK(client.attempts_last_call() == 2);
    CHECK(client.waits_last_call() == std::vector<double>{0.05});  // uncapped, the server's 30 s
}

TEST_CASE("retries: the backoff doubles between attempts") {
    fake_server server;
    auto o = opts(server.url(), 3);
    o.backoff_initial_s = 0.2;
    o.backoff_max_s = 10;
    http_client client(o);
    const auto start = std::chrono::steady_clock::now();
    const std::string msg = error_of([&] { openai_completions(client, "always-500", "a", sampling{}); });
    const double elapsed = seconds_since(start);
    CHECK(contains(msg, "after 4 attempts"));
    CHECK(client.waits_last_call() == std::vector<double>{0.2, 0.4, 0.8});
    // ... and slept them: 1.4 s; without doubling it would be 0.6 s.
    CHECK(elapsed >= 1.35);
}

TEST_CASE("retries: always 500 fails after max_retries naming the status") {
    fake_server server;
    http_client client(opts(server.url(), 2));
    const std::string msg = error_of([&] { openai_completions(client, "always-500", "a", sampling{}); });
    CHECK(contains(msg, "HTTP 500"));
    CHECK(contains(msg, "after 3 attempts"));
    CHECK(contains(msg, "internal boom"));
    CHECK(contains(msg, server.url() + "/v1/completions"));
    CHECK(client.attempts_last_call() == 3);
    CHECK(server.requests().size() == 3);
}

TEST_CASE("timeout: a slow server fails with a timeout") {
    fake_server server;
    auto o = opts(server.url("/b/slow"), 1);
    o.request_timeout_s = 0.5;
    http_client client(o);
    const auto start = std::chrono::steady_clock::now();
    const std::string msg = error_of([&] { llama_infill(client, "a", "b", sampling{}); });
    const double elapsed = seconds_since(start);
    // Without the timeout the server would answer after 3 s and the call
    // succeed: the error itself shows the timeout fired, on both attempts.
    CHECK(contains(msg, "timeout"));
    CHECK(contains(msg, "/b/slow/infill"));
    CHECK(client.attempts_last_call() == 2);
    CHECK(client.waits_last_call().size() == 1);
    // Not before its time, on either attempt (a lower bound: load only lengthens it).
    CHECK(elapsed >= 2 * 0.5);
}

TEST_CASE("bad responses are errors naming the problem, without retry") {
    fake_server server;
    http_client client(opts(server.url()));

    std::string msg = error_of([&] { openai_completions(client, "malformed", "a", sampling{}); });
    CHECK(contains(msg, "not valid JSON"));
    CHECK(client.attempts_last_call() == 1);

    msg = error_of([&] { openai_completions(client, "not-object", "a", sampling{}); });
    CHECK(contains(msg, "not a JSON object"));
    CHECK(client.attempts_last_call() == 1);

    msg = error_of([&] { openai_chat(client, "missing-choices", "", "a", sampling{}); });
    CHECK(contains(msg, "'choices'"));
    CHECK(contains(msg, "/v1/chat/completions"));
    CHECK(client.attempts_last_call() == 1);

    msg = error_of([&] { openai_completions(client, "bad-request", "a", sampling{}); });
    CHECK(contains(msg, "HTTP 400"));
    CHECK(contains(msg, "prompt is too long for this model"));
    CHECK(client.attempts_last_call() == 1);

    try {
        openai_completions(client, "bad-request", "a", sampling{});
    } catch (const http_error& e) {
        CHECK(e.status() == 400);
    }
    CHECK(server.requests().size() == 5);
}

TEST_CASE("connection refused fails clearly") {
    // A port that was free a moment ago and has no listener.
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    close(fd);
    const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));

    http_client client(opts(url, 2));
    const std::string msg = error_of([&] { openai_completions(client, "echo", "a", sampling{}); });
    CHECK(contains(msg, url + "/v1/completions"));
    CHECK(contains(msg, "connect"));
    CHECK(client.attempts_last_call() == 3);
}

TEST_CASE("Authorization header sent when api_key is set") {
    fake_server server;
    auto o = opts(server.url() + "/");  // a trailing slash is tolerated
    o.api_key = "sk-test-123";
    http_client client(o);
    openai_completions(client, "echo", "a", sampling{});
    const json reqs = server.requests();
    REQUIRE(reqs.size() == 1);
    CHECK(reqs[0]["path"] == "/v1/completions");
    CHECK(reqs[0]["headers"]["authorization"] == "Bearer sk-test-123");
}

TEST_CASE("extract_code_block") {
    CHECK(extract_code_block("fn main() {}") == "fn main() {}");
    CHECK(extract_code_block("Sure:\n```\nfn a() {}\n```\nbye") == "fn a() {}\n");
    CHECK(extract_code_block("x\n```text\nin\n```\n```rust\nfn b() {}\n```\n") == "fn b() {}\n");
    CHECK(extract_code_block("```rs\nfn c() {}\n```") == "fn c() {}\n");
    CHECK(extract_code_block("~~~rust\nlet s = \"```\";\n~~~\n") == "let s = \"```\";\n");
    CHECK(extract_code_block("Here:\r\n```rust\r\nfn d() {\r\n}\r\n```\r\n") == "fn d() {\n}\n");
    CHECK(extract_code_block("```rust\nfn e() {\n    1\n") == "fn e() {\n    1\n");
    CHECK(extract_code_block("```rust\nfn f() {}") == "fn f() {}\n");
    // A plain block is taken when no rust block exists; other languages are not.
    CHECK(extract_code_block("```text\nt\n```\n```\nfn g() {}\n```") == "fn g() {}\n");
    CHECK(extract_code_block("```python\nprint()\n```") == "```python\nprint()\n```");
    // Of several plain blocks the first is taken, as of several rust blocks.
    CHECK(extract_code_block("```\nfn h() {}\n```\nor\n```\nfn i() {}\n```\n") == "fn h() {}\n");
    // Info strings with attributes, and a longer fence holding a shorter one.
    CHECK(extract_code_block("````Rust,ignore\n```\nx\n````\n") == "```\nx\n");
}
