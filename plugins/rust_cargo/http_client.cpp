#include "http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace rust_cargo {

using nlohmann::json;

namespace {

// At most 300 characters of a body for error messages, cut at a UTF-8
// character boundary so the message stays valid text.
std::string excerpt(const std::string& body) {
  constexpr std::size_t limit = 300;
  if (body.size() <= limit) return body;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80) --cut;
  return body.substr(0, cut) + "...";
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

struct response {
  long status = 0;
  std::string body;
  std::optional<double> retry_after;  // seconds, from a Retry-After header
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// Picks up "Retry-After: <seconds>"; the HTTP-date form is ignored (the
// ordinary backoff applies then).
std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  const std::size_t n = size * count;
  std::string line(data, n);
  constexpr std::string_view name = "retry-after:";
  if (line.size() > name.size() && std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
        return a == std::tolower(static_cast<unsigned char>(b));
      })) {
    const char* value = line.c_str() + name.size();
    char* end = nullptr;
    const double s = std::strtod(value, &end);
    while (end && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')) ++end;
    if (end != value && end && *end == '\0' && std::isfinite(s) && s >= 0)
      static_cast<response*>(user)->retry_after = s;
  }
  return n;
}

// Transport errors worth another attempt: the server may be starting,
// restarting or overloaded. Others (bad URL, unsupported protocol) are not.
bool transient(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

bool transient(long status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

long to_ms(double s) { return static_cast<long>(std::max(1.0, std::ceil(s * 1000.0))); }

}  // namespace

void http_client::curl_deleter::operator()(void* handle) const { curl_easy_cleanup(static_cast<CURL*>(handle)); }

http_client::http_client(http_options options) : options_(std::move(options)) {
  static std::once_flag once;
  static CURLcode init_result = CURLE_OK;
  std::call_once(once, [] { init_result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (init_result != CURLE_OK)
    throw http_error(std::string("curl_global_init failed: ") + curl_easy_strerror(init_result));
  curl_.reset(curl_easy_init());
  if (!curl_) throw http_error("curl_easy_init failed");
  while (!options_.base_url.empty() && options_.base_url.back() == '/') options_.base_url.pop_back();
}

http_client::~http_client() = default;
http_client::http_client(http_client&&) noexcept = default;
http_client& http_client::operator=(http_client&&) noexcept = default;

json http_client::post_json(const std::string& path, const json& body) {
  const std::string url = options_.base_url + (path.empty() || path[0] == '/' ? "" : "/") + path;
  const std::string where = "POST " + url;
  // Invalid UTF-8 in a prompt is replaced rather than failing the request.
  const std::string payload = body.dump(-1, ' ', false, json::error_handler_t::replace);

  struct slist_deleter {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
  };
  std::unique_ptr<curl_slist, slist_deleter> headers;
  auto add_header = [&](const std::string& h) {
    curl_slist* l = curl_slist_append(headers.get(), h.c_str());
    if (!l) throw http_error(where + ": out of memory building headers");
    headers.release();
    headers.reset(l);
  };
  add_header("Content-Type: application/json");
  add_header("Accept: application/json");
  add_header("Expect:");  // no 100-continue round trip for large prompts
  if (!options_.api_key.empty()) add_header("Authorization: Bearer " + options_.api_key);

  CURL* h = static_cast<CURL*>(curl_.get());
  const int max_attempts = 1 + std::max(0, options_.max_retries);
  double backoff = options_.backoff_initial_s;
  std::string last_failure;
  long last_status = 0;
  attempts_ = 0;
  waits_.clear();

  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    attempts_ = attempt;
    response r;
    // Reset keeps the connection cache, so keep-alive still works.
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM, thread-safe
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, to_ms(options_.connect_timeout_s));
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, to_ms(options_.request_timeout_s));
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &r.body);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &r);

    const CURLcode code = curl_easy_perform(h);
    if (code != CURLE_OK) {
      last_failure = code == CURLE_OPERATION_TIMEDOUT ? "timeout after " + format_seconds(options_.request_timeout_s)
                                                      : std::string("connection failed: ") + curl_easy_strerror(code);
      last_status = 0;
      if (!transient(code)) throw http_error(where + ": " + last_failure);
    } else {
      curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r.status);
      if (r.status >= 200 && r.status < 300) {
        json parsed = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
        if (parsed.is_discarded())
          throw http_error(
              where + ": HTTP " + std::to_string(r.status) + ": response is not valid JSON: " + excerpt(r.body),
              r.status);
        if (!parsed.is_object())
          throw http_error(
              where + ": HTTP " + std::to_string(r.status) + ": response is not a JSON object: " + excerpt(r.body),
              r.status);
        return parsed;
      }
      last_failure = "HTTP " + std::to_string(r.status) + ": " + excerpt(r.body);
      last_status = r.status;
      if (!transient(r.status)) throw http_error(where + ": " + last_failure, r.status);
    }
    if (attempt < max_attempts) {
      const double wait = std::min(r.retry_after.value_or(backoff), options_.backoff_max_s);
      waits_.push_back(wait);
      if (wait > 0) std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      backoff = std::min(backoff * 2, options_.backoff_max_s);
    }
  }
  throw http_error(where + ": failed after " + std::to_string(attempts_) + " attempts: " + last_failure, last_status);
}

// ---------------------------------------------------------------------------
// Generation endpoints

namespace {

using clock_type = std::chrono::steady_clock;

std::string where(const http_client& client, const std::string& path) {
  return "POST " + client.options().base_url + path;
}

[[noreturn]] void bad_field(const std::string& request, const std::string& field, const json& reply) {
  throw http_error(request + ": response field '" + field +
                   "' missing or ill-typed: " + excerpt(reply.dump(-1, ' ', false, json::error_handler_t::replace)));
}

// Why a server stopped is informative only: a field it left out, or sent as
// null (some servers do mid-stream) or another type, is "not said", never an
// error.
std::string string_said(const json& reply, const char* field) {
  auto it = reply.find(field);
  return it != reply.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool flag_said(const json& reply, const char* field) {
  auto it = reply.find(field);
  return it != reply.end() && it->is_boolean() && it->get<bool>();
}

std::string finish_reason_of(const json& choice) { return string_said(choice, "finish_reason"); }

void add_sampling(json& body, const sampling& s, int n, std::uint64_t seed_offset) {
  body["max_tokens"] = s.max_tokens;
  body["temperature"] = s.temperature;
  body["top_p"] = s.top_p;
  body["n"] = n;
  if (!s.stop.empty()) body["stop"] = s.stop;
  if (s.seed) body["seed"] = *s.seed + seed_offset;
}

// The shared loop of the two OpenAI endpoints: request the missing count until
// n samples are in, at most n extra requests. `text_of` extracts one choice's
// text (or calls bad_field).
template <class TextOf>
generation_batch collect_choices(http_client& client, const std::string& path, const json& base, const sampling& s,
                                 TextOf text_of) {
  generation_batch batch;
  const int want = std::max(1, s.n);
  bool tokens_known = true;
  std::int64_t tokens = 0;
  const auto start = clock_type::now();
  while (static_cast<int>(batch.samples.size()) < want) {
    if (batch.requests > want)
      throw http_error(where(client, path) + ": got " + std::to_string(batch.samples.size()) + " of " +
                       std::to_string(want) + " choices after " + std::to_string(batch.requests) + " requests");
    json body = base;
    const int missing = want - static_cast<int>(batch.samples.size());
    add_sampling(body, s, missing, batch.samples.size());
    const json reply = client.post_json(path, body);
    ++batch.requests;

    auto choices = reply.find("choices");
    if (choices == reply.end() || !choices->is_array()) bad_field(where(client, path), "choices", reply);
    std::vector<std::pair<std::int64_t, generation>> got;
    for (std::size_t i = 0; i < choices->size(); ++i) {
      const json& c = (*choices)[i];
      if (!c.is_object()) bad_field(where(client, path), "choices[" + std::to_string(i) + "]", reply);
      auto idx = c.find("index");
      const std::int64_t index =
          idx != c.end() && idx->is_number_integer() ? idx->get<std::int64_t>() : std::int64_t(i);
      got.emplace_back(index, generation{text_of(c, i, reply), finish_reason_of(c)});
    }
    std::stable_sort(got.begin(), got.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (auto& g : got)
      if (static_cast<int>(batch.samples.size()) < want) batch.samples.push_back(std::move(g.second));

    auto usage = reply.find("usage");
    if (usage != reply.end() && usage->is_object() && usage->contains("completion_tokens") &&
        (*usage)["completion_tokens"].is_number_integer())
      tokens += (*usage)["completion_tokens"].get<std::int64_t>();
    else
      tokens_known = false;
  }
  batch.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  if (tokens_known) batch.completion_tokens = tokens;
  return batch;
}

}  // namespace

generation_batch openai_completions(http_client& client, const std::string& model, const std::string& prompt,
                                    const sampling& s) {
  const std::string path = "/v1/completions";
  const json base = {{"model", model}, {"prompt", prompt}};
  return collect_choices(client, path, base, s, [&](const json& c, std::size_t i, const json& reply) {
    auto t = c.find("text");
    if (t == c.end() || !t->is_string())
      bad_field(where(client, path), "choices[" + std::to_string(i) + "].text", reply);
    return t->get<std::string>();
  });
}

generation_batch openai_chat(http_client& client, const std::string& model, const std::string& system,
                             const std::string& user, const sampling& s) {
  const std::string path = "/v1/chat/completions";
  json messages = json::array();
  if (!system.empty()) messages.push_back({{"role", "system"}, {"content", system}});
  messages.push_back({{"role", "user"}, {"content", user}});
  const json base = {{"model", model}, {"messages", messages}};
  return collect_choices(client, path, base, s, [&](const json& c, std::size_t i, const json& reply) {
    auto m = c.find("message");
    const std::string field = "choices[" + std::to_string(i) + "].message.content";
    if (m == c.end() || !m->is_object()) bad_field(where(client, path), field, reply);
    auto t = m->find("content");
    if (t == m->end() || !t->is_string()) bad_field(where(client, path), field, reply);
    return t->get<std::string>();
  });
}

generation_batch llama_infill(http_client& client, const std::string& prefix, const std::string& suffix,
                              const sampling& s) {
  const std::string path = "/infill";
  generation_batch batch;
  bool tokens_known = true;
  std::int64_t tokens = 0;
  const auto start = clock_type::now();
  for (int i = 0; i < std::max(1, s.n); ++i) {
    json body = {{"input_prefix", prefix},       {"input_suffix", suffix}, {"n_predict", s.max_tokens},
                 {"temperature", s.temperature}, {"top_p", s.top_p},       {"stop", s.stop}};
    if (s.seed) body["seed"] = *s.seed + static_cast<std::uint64_t>(i);
    const json reply = client.post_json(path, body);
    ++batch.requests;
    auto content = reply.find("content");
    if (content == reply.end() || !content->is_string()) bad_field(where(client, path), "content", reply);
    // llama.cpp reports why it stopped in stop_type (newer) or stopped_* flags;
    // mapped onto the OpenAI vocabulary used by the other endpoints.
    std::string reason;
    const std::string stop_type = string_said(reply, "stop_type");
    if (stop_type == "limit" || flag_said(reply, "stopped_limit"))
      reason = "length";
    else if (stop_type == "eos" || stop_type == "word" || flag_said(reply, "stopped_eos") ||
             flag_said(reply, "stopped_word"))
      reason = "stop";
    batch.samples.push_back({content->get<std::string>(), reason});
    auto tp = reply.find("tokens_predicted");
    if (tp != reply.end() && tp->is_number_integer())
      tokens += tp->get<std::int64_t>();
    else
      tokens_known = false;
  }
  batch.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  if (tokens_known) batch.completion_tokens = tokens;
  return batch;
}

// ---------------------------------------------------------------------------
// Code-block extraction

namespace {

struct fence {
  char ch = 0;
  std::size_t len = 0;
  std::string info;  // first word of the info string, lower case
};

// A fence line: optional indentation, then 3+ backticks or tildes, then the
// info string (for an opening fence).
std::optional<fence> parse_fence(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || (line[i] != '`' && line[i] != '~')) return std::nullopt;
  fence f;
  f.ch = line[i];
  while (i < line.size() && line[i] == f.ch) ++f.len, ++i;
  if (f.len < 3) return std::nullopt;
  std::size_t b = line.find_first_not_of(" \t", i);
  if (b != std::string_view::npos) {
    std::size_t e = line.find_first_of(" \t,{}", b);
    for (char c : line.substr(b, e == std::string_view::npos ? line.size() - b : e - b))
      f.info += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return f;
}

}  // namespace

std::string extract_code_block(const std::string& reply) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= reply.size();) {
    std::size_t nl = reply.find('\n', pos);
    std::string_view line(reply.data() + pos, (nl == std::string::npos ? reply.size() : nl) - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }

  std::optional<std::string> plain;  // first block without an info string
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto open = parse_fence(lines[i]);
    if (!open) continue;
    std::string content;
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      auto close = parse_fence(lines[j]);
      if (close && close->ch == open->ch && close->len >= open->len && close->info.empty()) break;
      content.append(lines[j]).push_back('\n');
    }
    // The last line of an unterminated block without a trailing newline.
    if (j == lines.size() && !content.empty() && lines.back().empty()) content.pop_back();
    if (open->info == "rust" || open->info == "rs") return content;
    if (open->info.empty() && !plain) plain = std::move(content);
    i = j;  // skip past the closing fence
  }
  return plain ? *plain : reply;
}

}  // namespace rust_cargo
