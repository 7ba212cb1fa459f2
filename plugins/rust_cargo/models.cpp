#include "models.hpp"

#include "http_client.hpp"
#include "sandbox.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <unistd.h>

extern char** environ;

namespace rust_cargo {
namespace {

using json = nlohmann::json;

/// Separates files in a completion prompt; also the stop sequence for
/// whole-file rewrites, so a base model stops after the one file.
constexpr const char* file_rule = "// ===== ";

class oracle_model final : public code_model {
 public:
  model_outputs generate(const task& t, const sample_request& r) override {
    return {std::vector<std::string>(static_cast<std::size_t>(r.n), t.oracle_output()), std::nullopt, 0.0};
  }
};

class identity_model final : public code_model {
 public:
  model_outputs generate(const task& t, const sample_request& r) override {
    return {std::vector<std::string>(static_cast<std::size_t>(r.n), t.identity_output()), std::nullopt, 0.0};
  }
};

struct prompt_format {
  std::string fim_template = "starcoder";
  std::string fim_format;  ///< fim_template = "custom": text with {prefix} and {suffix}
  void read(bem::parameters& p) {
    fim_template = p.get_string("fim_template", fim_template);
    fim_format = p.get_string("fim_format", fim_format);
    render_fim(fim_template, fim_format, "", "");  // fails now for an unknown template
  }
};

/// An external program: the rendered prompt on stdin, the output on stdout.
/// It is the user's own program, so it runs unconfined, with a time limit.
class command_model final : public code_model {
 public:
  command_model(std::vector<std::string> argv, double timeout_s, prompt_format format, bool extract, std::string helper)
      : argv_(std::move(argv)), timeout_s_(timeout_s), format_(std::move(format)), extract_(extract) {
    box_.exec_helper = std::move(helper);
  }
  model_outputs generate(const task& t, const sample_request& r) override {
    model_outputs out;
    char dir_template[] = "/tmp/bem-command-XXXXXX";
    if (mkdtemp(dir_template) == nullptr) throw std::runtime_error("command model: cannot make a temporary folder");
    const std::string dir = dir_template;
    const std::string prompt_file = dir + "/prompt.txt";
    std::ofstream(prompt_file, std::ios::binary) << render_completion_prompt(t, format_.fim_template, format_.fim_format);
    // The program's environment is ours plus what it needs to know.
    std::map<std::string, std::string> vars;
    for (char** e = environ; *e; ++e) {
      const std::string kv = *e;
      if (const auto eq = kv.find('='); eq != std::string::npos) vars[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    vars["BEM_TASK_ID"] = t.id;
    vars["BEM_CATEGORY"] = t.category;
    vars["BEM_SPLICE"] = splice_kind_name(t.kind());
    vars["BEM_TEMPERATURE"] = std::to_string(r.greedy ? 0.0 : r.temperature);
    vars["BEM_TOP_P"] = std::to_string(r.greedy ? 1.0 : r.top_p);
    const std::vector<std::pair<std::string, std::string>> env(vars.begin(), vars.end());
    resource_limits limits;
    limits.wall_seconds = timeout_s_;
    limits.cpu_seconds = 1e6;
    limits.address_space_bytes = ~0ull;
    limits.processes = 4096;
    limits.captured_output_bytes = 4u << 20;
    limits.output_kill_bytes = 16u << 20;
    for (int i = 0; i < r.n; ++i) {
      auto sample_env = env;
      sample_env.emplace_back("BEM_SAMPLE", std::to_string(i));
      sample_env.emplace_back("BEM_SEED", std::to_string(r.seed + static_cast<std::uint64_t>(i)));
      const auto res = run_confined(box_, argv_, dir, sample_env, limits, prompt_file);
      out.seconds += res.seconds;
      if (!res.ok()) {
        std::filesystem::remove_all(dir);
        throw std::runtime_error("command model '" + argv_[0] + "' on " + t.id + ": " +
                                 (res.timed_out    ? "timed out after " + std::to_string(timeout_s_) + " s"
                                  : res.signal != 0 ? "killed by signal " + std::to_string(res.signal)
                                                    : "exit " + std::to_string(res.exit_code)) +
                                 (res.err.empty() ? "" : ": " + res.err.substr(0, 300)));
      }
      out.outputs.push_back(output_from_reply(t, res.out, extract_));
    }
    std::filesystem::remove_all(dir);
    return out;
  }

 private:
  std::vector<std::string> argv_;
  double timeout_s_;
  prompt_format format_;
  bool extract_;
  sandbox box_;
};

struct http_settings {
  http_options options;
  std::string served_model;
  int max_tokens = 2048;
  std::vector<std::string> stop;
  void read(bem::parameters& p) {
    options.base_url = p.get_string("base_url", "");
    if (options.base_url.empty()) throw bem::parameter_error("base_url", "required: the server's address, e.g. http://127.0.0.1:8080");
    served_model = p.get_string("served_model", "");
    // The key comes from the environment, never from a suite file.
    const std::string key_env = p.get_string("api_key_env", "OPENAI_API_KEY");
    if (const char* k = key_env.empty() ? nullptr : std::getenv(key_env.c_str())) options.api_key = k;
    options.request_timeout_s = p.get_double("timeout_s", 300);
    options.max_retries = static_cast<int>(p.get_int("max_retries", 3));
    options.backoff_initial_s = p.get_double("backoff_s", 0.5);
    max_tokens = static_cast<int>(p.get_int("max_tokens", max_tokens));
    stop = p.get_string_list("stop", {});
  }
  sampling for_request(const task& t, const sample_request& r) const {
    sampling s;
    s.n = r.n;
    s.temperature = r.greedy ? 0.0 : r.temperature;
    s.top_p = r.greedy ? 1.0 : r.top_p;
    s.max_tokens = max_tokens;
    s.stop = stop;
    if (t.kind() == splice_kind::whole_file || t.kind() == splice_kind::project_file)
      s.stop.push_back(std::string("\n") + file_rule);
    s.seed = r.seed;
    return s;
  }
};

model_outputs from_batch(const task& t, const generation_batch& b, bool extract) {
  model_outputs out;
  for (const auto& g : b.samples) out.outputs.push_back(output_from_reply(t, g.text, extract));
  out.tokens = b.completion_tokens;
  out.seconds = b.seconds;
  return out;
}

class completions_model final : public code_model {
 public:
  completions_model(http_settings s, prompt_format f, bool infill) : s_(std::move(s)), f_(std::move(f)), infill_(infill), client_(s_.options) {}
  model_outputs generate(const task& t, const sample_request& r) override {
    const auto sampling = s_.for_request(t, r);
    if (infill_ && t.kind() == splice_kind::fill_in_middle)
      return from_batch(t, llama_infill(client_, t.prefix, t.suffix, sampling), false);
    return from_batch(t, openai_completions(client_, s_.served_model, render_completion_prompt(t, f_.fim_template, f_.fim_format), sampling), false);
  }

 private:
  http_settings s_;
  prompt_format f_;
  bool infill_;
  http_client client_;
};

class chat_model final : public code_model {
 public:
  chat_model(http_settings s, std::string system) : s_(std::move(s)), system_(std::move(system)), client_(s_.options) {}
  model_outputs generate(const task& t, const sample_request& r) override {
    auto sampling = s_.for_request(t, r);
    sampling.stop = s_.stop;  // a chat reply is a message, not a file stream
    return from_batch(t, openai_chat(client_, s_.served_model, system_, render_chat_prompt(t), sampling), true);
  }

 private:
  http_settings s_;
  std::string system_;
  http_client client_;
};

/// Outputs of an earlier run, keyed by task id: sampled ones and the greedy one.
class stored_model final : public code_model {
 public:
  explicit stored_model(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("stored model: cannot read " + path);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (line.empty()) continue;
      const auto j = json::parse(line, nullptr, false);
      const std::string where = path + ":" + std::to_string(number) + ": ";
      if (j.is_discarded() || !j.is_object() || !j.contains("task") || !j.contains("output") || !j.contains("greedy"))
        throw std::runtime_error(where + "not a sample record (task, greedy, output)");
      struct field_type {
        const char* field;
        bool ok;
        const char* type;
      };
      for (const auto& f : {field_type{"task", j["task"].is_string(), "a string"},
                            field_type{"greedy", j["greedy"].is_boolean(), "a Boolean"},
                            field_type{"output", j["output"].is_string(), "a string"}})
        if (!f.ok) throw std::runtime_error(where + "field '" + f.field + "' must be " + f.type);
      auto& list = j["greedy"].get<bool>() ? greedy_[j["task"]] : sampled_[j["task"]];
      list.push_back(j["output"].get<std::string>());
    }
    path_ = path;
  }
  model_outputs generate(const task& t, const sample_request& r) override {
    const auto& table = r.greedy ? greedy_ : sampled_;
    const auto it = table.find(t.id);
    const std::size_t have = it == table.end() ? 0 : it->second.size();
    if (have < static_cast<std::size_t>(r.n))
      throw std::runtime_error(path_ + " holds " + std::to_string(have) + (r.greedy ? " greedy" : " sampled") +
                               " outputs for task " + t.id + ", the run asks for " + std::to_string(r.n));
    return {std::vector<std::string>(it->second.begin(), it->second.begin() + r.n), std::nullopt, 0.0};
  }

 private:
  std::string path_;
  std::map<std::string, std::vector<std::string>> sampled_, greedy_;
};

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

std::string context_listing(const task& t) {
  std::string s;
  for (const auto& [path, text] : t.context) s += std::string(file_rule) + path + " =====\n" + text;
  return s;
}

}  // namespace

std::string render_fim(const std::string& name, const std::string& custom, const std::string& p, const std::string& s) {
  if (name == "starcoder") return "<fim_prefix>" + p + "<fim_suffix>" + s + "<fim_middle>";
  if (name == "qwen2.5-coder") return "<|fim_prefix|>" + p + "<|fim_suffix|>" + s + "<|fim_middle|>";
  if (name == "codellama") return "<PRE> " + p + " <SUF>" + s + " <MID>";
  if (name == "deepseek-coder") return "<｜fim▁begin｜>" + p + "<｜fim▁hole｜>" + s + "<｜fim▁end｜>";
  if (name == "codestral") return "[SUFFIX]" + s + "[PREFIX]" + p;
  if (name == "custom") {
    const auto at_p = custom.find("{prefix}"), at_s = custom.find("{suffix}");
    if (at_p == std::string::npos || at_s == std::string::npos)
      throw bem::parameter_error("fim_format", "must contain {prefix} and {suffix}");
    std::string out = custom;
    // Replace the later placeholder first so the earlier position stays valid.
    if (at_p > at_s) {
      out.replace(at_p, 8, p);
      out.replace(at_s, 8, s);
    } else {
      out.replace(at_s, 8, s);
      out.replace(at_p, 8, p);
    }
    return out;
  }
  throw bem::parameter_error("fim_template", "unknown template '" + name +
                                                 "' (starcoder, qwen2.5-coder, codellama, deepseek-coder, codestral, custom)");
}

std::string render_completion_prompt(const task& t, const std::string& fim_template, const std::string& fim_format) {
  switch (t.kind()) {
    case splice_kind::continuation: return t.prompt;
    case splice_kind::fill_in_middle: return render_fim(fim_template, fim_format, t.prefix, t.suffix);
    default:
      return context_listing(t) + file_rule + t.target_file + " =====\n" + t.prompt + file_rule + t.target_file +
             ", rewritten as its Task comment asks =====\n";
  }
}

std::string render_chat_prompt(const task& t) {
  const std::string file = "```rust\n" + t.prompt + (t.prompt.empty() || t.prompt.back() == '\n' ? "" : "\n") + "```\n";
  switch (t.kind()) {
    case splice_kind::continuation:
      return "Continue this Rust file from exactly where it stops. Reply with one ```rust code block that holds only "
             "the text that comes after the last character shown.\n\n" + file;
    case splice_kind::fill_in_middle:
      return std::string("Replace the marker ") + fim_marker + " in this Rust file with the missing code. Reply "
             "with one ```rust code block that holds only the code replacing the marker.\n\n" + file;
    case splice_kind::whole_file:
      return "Do what the Task comment at the top of this Rust file asks. Reply with the complete new file in one "
             "```rust code block.\n\n" + file;
    case splice_kind::project_file:
      return "A Rust crate has these files:\n\n" + context_listing(t) + "\nDo what the Task comment at the top of " +
             t.target_file + " asks. Reply with the complete new " + t.target_file +
             " in one ```rust code block.\n\n" + file;
  }
  return file;
}

std::string output_from_reply(const task& t, const std::string& reply, bool extract) {
  std::string out = extract ? extract_code_block(reply) : reply;
  if (!extract) return out;
  // Chat models often repeat what they were shown; keep what the splice needs.
  if (t.kind() == splice_kind::continuation && starts_with(out, t.prompt)) return out.substr(t.prompt.size());
  if (t.kind() == splice_kind::fill_in_middle && out.size() >= t.prefix.size() + t.suffix.size() &&
      starts_with(out, t.prefix) && out.compare(out.size() - t.suffix.size(), t.suffix.size(), t.suffix) == 0)
    return out.substr(t.prefix.size(), out.size() - t.prefix.size() - t.suffix.size());
  return out;
}

model_factory make_model_factory(const std::string& name, bem::parameters& p, const std::string& exec_helper) {
  if (name == "oracle") return {name, [] { return std::make_unique<oracle_model>(); }};
  if (name == "identity") return {name, [] { return std::make_unique<identity_model>(); }};
  if (name == "stored") {
    const std::string path = p.get_string("samples", "");
    if (path.empty()) throw bem::parameter_error("samples", "required: the samples.jsonl of an earlier run");
    auto shared = std::make_shared<stored_model>(path);
    return {name, [shared] { return std::make_unique<stored_model>(*shared); }};
  }
  if (name == "command") {
    const auto argv = p.get_string_list("command", {});
    if (argv.empty()) throw bem::parameter_error("command", "required: the program and its arguments, a list");
    const double timeout = p.get_double("timeout_s", 60);
    prompt_format f;
    f.read(p);
    const bool extract = p.get_bool("extract_code_block", false);
    return {name, [=] { return std::make_unique<command_model>(argv, timeout, f, extract, exec_helper); }};
  }
  if (name == "openai_completions") {
    http_settings s;
    s.read(p);
    prompt_format f;
    f.read(p);
    const std::string endpoint = p.get_string("fim_endpoint", "template");
    if (endpoint != "template" && endpoint != "infill")
      throw bem::parameter_error("fim_endpoint", "'template' (/v1/completions) or 'infill' (llama.cpp /infill)");
    return {name, [=] { return std::make_unique<completions_model>(s, f, endpoint == "infill"); }};
  }
  if (name == "openai_chat") {
    http_settings s;
    s.read(p);
    const std::string system = p.get_string("system", "You are an expert Rust engineer. Answer with code only.");
    return {name, [=] { return std::make_unique<chat_model>(s, system); }};
  }
  throw std::runtime_error("rust_cargo: unknown model '" + name +
                           "' (oracle, identity, command, openai_completions, openai_chat, stored)");
}

}  // namespace rust_cargo
