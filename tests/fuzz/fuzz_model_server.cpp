// Model-server replies as the Rust suite's HTTP client reads them
// (plugins/rust_cargo/http_client.cpp): a server on loopback, in a thread
// of the harness, answers every request with HTTP 200 and the fuzzed bytes
// as its body. The first byte picks the endpoint (completions, chat,
// llama.cpp's infill) and the number of samples asked for. Every bad reply
// is an http_error naming the request and the field.
#include "fuzz_common.hpp"
#include "http_client.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <thread>

namespace {

class loopback_server {
 public:
  loopback_server() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(listener_, 16) != 0 || ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      std::perror("loopback server");
      std::abort();
    }
    port_ = ntohs(a.sin_port);
    std::thread([this] { serve(); }).detach();  // lives as long as the process
  }
  int port() const { return port_; }
  void set_reply(std::string body) {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = std::move(body);
  }

 private:
  void serve() {
    for (;;) {
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;
      while (answer_one(fd)) {
      }
      ::close(fd);
    }
  }
  // Reads one request (headers, then Content-Length bytes) and answers it;
  // false when the client closed the connection.
  bool answer_one(int fd) {
    std::string in;
    std::size_t header_end;
    while ((header_end = in.find("\r\n\r\n")) == std::string::npos)
      if (!read_more(fd, in)) return false;
    std::string headers = in.substr(0, header_end);
    std::transform(headers.begin(), headers.end(), headers.begin(), [](unsigned char c) { return std::tolower(c); });
    std::size_t body_bytes = 0;
    if (const auto at = headers.find("content-length:"); at != std::string::npos)
      body_bytes = std::strtoull(headers.c_str() + at + 15, nullptr, 10);
    while (in.size() < header_end + 4 + body_bytes)
      if (!read_more(fd, in)) return false;
    std::string body;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body = body_;
    }
    const std::string reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\n\r\n" + body;
    for (std::size_t sent = 0; sent < reply.size();) {
      const auto n = ::send(fd, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }
  static bool read_more(int fd, std::string& in) {
    char buf[4096];
    const auto n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    in.append(buf, static_cast<std::size_t>(n));
    return true;
  }
  int listener_ = -1;
  int port_ = 0;
  std::mutex mutex_;
  std::string body_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static loopback_server server;
  static rust_cargo::http_client client([] {
    rust_cargo::http_options o;
    o.base_url = "http://127.0.0.1:" + std::to_string(server.port());
    o.connect_timeout_s = 5;
    o.request_timeout_s = 5;
    o.max_retries = 0;  // a 200 is never retried; nothing here is transient
    return o;
  }());
  if (size == 0) return 0;
  server.set_reply(std::string(fuzz::as_text(data + 1, size - 1)));
  rust_cargo::sampling s;
  s.n = 1 + (data[0] >> 2) % 3;
  s.seed = 7;
  try {
    rust_cargo::generation_batch batch;
    switch (data[0] % 3) {
      case 0: batch = rust_cargo::openai_completions(client, "fuzz", "fn main() {", s); break;
      case 1: batch = rust_cargo::openai_chat(client, "fuzz", "system", "user", s); break;
      default: batch = rust_cargo::llama_infill(client, "fn main() {", "}", s); break;
    }
    for (const auto& g : batch.samples) (void)rust_cargo::extract_code_block(g.text);
  } catch (const rust_cargo::http_error&) {
  }
  return 0;
}
