// Code models: what turns a task into outputs (continuations, middles or
// whole files, as the task's splice kind asks).
//
//   oracle              the reference answer
//   identity            the prompt unchanged (every task must fail)
//   command             an external program: the rendered prompt on stdin,
//                       the output on stdout, within a time limit
//   openai_completions  an OpenAI-compatible /v1/completions server; fim
//                       tasks through a FIM template, or llama.cpp's /infill
//   openai_chat         an OpenAI-compatible /v1/chat/completions server;
//                       the answer is the reply's Rust code block
//   stored              the outputs of an earlier run's samples.jsonl, so
//                       evaluation can be repeated without the model
#pragma once

#include "dataset.hpp"

#include <bem/harness/parameters.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rust_cargo {

/// How the outputs of one task were drawn.
struct sample_request {
  int n = 1;
  double temperature = 0.8;
  double top_p = 0.95;
  std::uint64_t seed = 0;  ///< the first sample's seed; servers that take a seed get it
  bool greedy = false;     ///< temperature 0, one deterministic sample
};

struct model_outputs {
  std::vector<std::string> outputs;
  std::optional<std::int64_t> tokens;  ///< generated tokens over all outputs, when the model says
  double seconds = 0;                  ///< wall time of generation
};

class code_model {
 public:
  virtual ~code_model() = default;
  virtual model_outputs generate(const task& t, const sample_request& request) = 0;
};

/// FIM prompt formats of the model families people serve.
std::string render_fim(const std::string& template_name, const std::string& custom_format, const std::string& prefix,
                       const std::string& suffix);
/// The text a completion model continues: the prompt for continuations, the
/// FIM-formatted prefix and suffix, or the context files and the file to
/// rewrite followed by the header of its rewritten version.
std::string render_completion_prompt(const task& t, const std::string& fim_template, const std::string& fim_format);
/// The user message for a chat model.
std::string render_chat_prompt(const task& t);
/// Turns a chat reply (or a command's answer) into the output the task
/// expects: the code block's content; for continuations without the prompt
/// when the model repeated it; for fim without prefix and suffix when the
/// model returned the whole file.
std::string output_from_reply(const task& t, const std::string& reply, bool extract_block);

/// Makes a model factory from the suite's model name and parameters (read
/// now, so unknown keys fail before any work); each worker thread calls it
/// for a model of its own.
struct model_factory {
  std::string name;
  std::function<std::unique_ptr<code_model>()> make;
};
model_factory make_model_factory(const std::string& name, bem::parameters& params, const std::string& exec_helper);

}  // namespace rust_cargo
