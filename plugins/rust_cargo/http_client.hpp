// HTTP client for the code-generation models that the rust_cargo plugin
// evaluates: OpenAI-compatible servers (/v1/completions, /v1/chat/completions:
// vLLM, llama.cpp, TGI, hosted APIs) and llama.cpp's /infill endpoint.
//
// Built on the libcurl easy interface. One http_client owns one CURL handle
// and is meant to be used by one thread at a time (it keeps the connection
// alive between requests). Every failure is reported as rust_cargo::http_error
// with a message naming the URL, the HTTP status when there was one, and an
// excerpt of the response body.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rust_cargo {

// status() is the last HTTP status seen (0: none, e.g. connection refused,
// timeout, or a client-side problem such as an ill-formed response).
class http_error : public std::runtime_error {
 public:
  explicit http_error(const std::string& what, long status = 0) : std::runtime_error(what), status_(status) {}
  long status() const noexcept { return status_; }

 private:
  long status_;
};

struct http_options {
  std::string base_url;  // e.g. http://127.0.0.1:8080 (a path prefix is allowed)
  std::string api_key;   // sent as "Authorization: Bearer ..." when non-empty
  double connect_timeout_s = 10;
  double request_timeout_s = 300;  // whole request, per attempt
  int max_retries = 3;             // retries after the first attempt
  double backoff_initial_s = 0.5;  // doubles per retry, capped at backoff_max_s
  double backoff_max_s = 30;       // also caps a server's Retry-After
};

class http_client {
 public:
  explicit http_client(http_options options);
  ~http_client();
  http_client(http_client&&) noexcept;
  http_client& operator=(http_client&&) noexcept;
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  // POSTs `body` as JSON to base_url + path and returns the response, which
  // must be a 2xx whose body is a JSON object. Retries with exponential
  // backoff (or the server's Retry-After) on connection failures, timeouts
  // and HTTP 429/500/502/503/504; other failures throw at once.
  nlohmann::json post_json(const std::string& path, const nlohmann::json& body);

  // Attempts made by the last post_json call (1 = no retry needed).
  int attempts_last_call() const { return attempts_; }
  // The waits before each retry of the last post_json call, in seconds, in
  // order: the backoff or the server's Retry-After, capped. What the client
  // decided, so a test can check it exactly whatever else the machine runs.
  const std::vector<double>& waits_last_call() const { return waits_; }

  const http_options& options() const { return options_; }

 private:
  struct curl_deleter {
    void operator()(void* handle) const;
  };
  http_options options_;
  std::unique_ptr<void, curl_deleter> curl_;
  int attempts_ = 0;
  std::vector<double> waits_;
};

struct sampling {
  int n = 1;
  double temperature = 0.0;
  double top_p = 1.0;
  int max_tokens = 512;
  std::vector<std::string> stop;
  // When several requests are needed for n samples, request k (k = samples
  // already collected) is sent seed + k, so a seeded server does not return
  // the same sample again.
  std::optional<std::uint64_t> seed;
};

struct generation {
  std::string text;
  std::string finish_reason;  // OpenAI vocabulary ("stop", "length", ...); "" if unknown
};

struct generation_batch {
  std::vector<generation> samples;
  // Total over the batch when every response said (usage.completion_tokens,
  // or llama.cpp's tokens_predicted summed); unset otherwise.
  std::optional<std::int64_t> completion_tokens;
  double seconds = 0;  // wall time of the requests, retries and backoff included
  int requests = 0;    // post_json calls made (retries not counted)
};

// POST /v1/completions. Samples are ordered by choices[i].index. When the server
// returns fewer than n choices (many local servers ignore n), asks again for the
// remaining count, at most n extra requests; still short -> http_error.
generation_batch openai_completions(http_client& client, const std::string& model, const std::string& prompt,
                                    const sampling& s);

// POST /v1/chat/completions with an optional system message (omitted when
// empty) and a user message; text = choices[i].message.content. Same top-up rule.
generation_batch openai_chat(http_client& client, const std::string& model, const std::string& system,
                             const std::string& user, const sampling& s);

// llama.cpp server POST /infill (fill-in-the-middle), one request per sample.
generation_batch llama_infill(http_client& client, const std::string& prefix, const std::string& suffix,
                              const sampling& s);

// The content of the first ```rust / ```rs fenced block (``` or ~~~ fences),
// else of the first fenced block without an info string; the reply unchanged
// when there is neither. Tolerates \r\n; an unterminated last fence takes the
// rest of the reply. The result uses \n line ends and ends with a newline.
std::string extract_code_block(const std::string& reply);

}  // namespace rust_cargo
