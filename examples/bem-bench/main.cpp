// bem-bench: runs benchmark suites and writes honest, reproducible results.
//
// One CLI11 parser holds every command and flag: `--flag X` and `--flag=X`
// alike, `--help` per command, and the synopsis lines that `--help`, usage
// errors and the README show are generated from it.
#include "report.hpp"
#include "results_dir.hpp"
#include "runner.hpp"
#include "suite.hpp"

#include "build_info.hpp"

#include <bem/harness/baselines.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/machine/trace_file.hpp>
#include <bem/platform/hwinfo.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/plugin/host.hpp>
#include <bem/version.hpp>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace bench_driver;

/// What the command line asks for; the parser fills it.
struct arguments {
  std::vector<std::string> plugin_path;  ///< each --plugin-path entry, ':'-lists split
  run_options run;
  std::string suite_file;                ///< run: empty for the embedded quick suite
  std::vector<std::string> report_dirs;
  std::string report_out;
  std::string baseline, current;
  double max_drop = 0.05;
  bool include_timing = false, across_models = false;
  bool hwinfo_json = false;
  bool list_parameters = false;  ///< list --parameters
  std::string log_file;  ///< log verify
};

/// "I/N" with 0 <= I < N, as --shard takes it; false for anything else.
bool parse_shard(std::string_view v, int& index, int& count) {
  const auto whole_int = [](std::string_view t, int& out) {
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return !t.empty() && ec == std::errc() && end == t.data() + t.size();
  };
  const auto slash = v.find('/');
  return slash != std::string_view::npos && whole_int(v.substr(0, slash), index) &&
         whole_int(v.substr(slash + 1), count) && count >= 1 && index >= 0 && index < count;
}

/// A CLI11 check: the value is a number, positive (or not negative) and finite.
CLI::Validator number_check(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        const bool ok = !v.empty() && *end == '\0' && std::isfinite(x) && (zero_allowed ? x >= 0 : x > 0);
        return ok ? "" : std::string("takes a ") + (zero_allowed ? "non-negative" : "positive") +
                             " number, got '" + v + "'";
      },
      "");
}

/// The one-line synopsis of `app` ("bem-bench run [SUITE.toml] [--out DIR]
/// ..."), from its options in the order they were declared.
/// "bem-bench", "bem-bench run", "bem-bench log verify".
std::string command_path(const CLI::App& app) {
  return app.get_parent() ? command_path(*app.get_parent()) + " " + app.get_name() : "bem-bench";
}

std::string synopsis(const CLI::App& app) {
  std::string s = command_path(app);
  for (const CLI::Option* o : app.get_options()) {
    if (o == app.get_help_ptr() || o == app.get_version_ptr()) continue;
    const bool repeated = o->get_items_expected_max() > 1 || o->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
    if (o->get_positional()) {
      std::string word = o->get_name();
      if (repeated) word += " [" + o->get_name() + "...]";
      s += " " + (o->get_required() ? word : "[" + word + "]");
    } else {
      const std::string value = o->get_expected_max() == 0 ? "" : " " + o->get_type_name();  // a flag takes none
      s += " [" + o->get_name() + value + "]" + (repeated ? "..." : "");
    }
  }
  if (!app.get_subcommands({}).empty()) s += " COMMAND [ARGS]";
  return s;
}

/// CLI11's help, with our synopsis as its usage line and each option shown
/// with its value's name alone (the usage line says what is required, and
/// the descriptions what excludes what).
class formatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App* app, std::string) const override { return "usage: " + synopsis(*app) + "\n"; }
  std::string make_option_opts(const CLI::Option* o) const override {
    return o->get_expected_max() == 0 || o->get_type_name().empty() ? "" : " " + o->get_type_name();
  }
};

/// The command that the parse reached: the selected subcommand, or the app.
const CLI::App& reached(const CLI::App& app) {
  const auto selected = app.get_subcommands();
  return selected.empty() ? app : reached(*selected.front());
}

/// Declares every command and flag of bem-bench, writing into `c`.
void declare(CLI::App& app, arguments& c) {
  app.formatter(std::make_shared<formatter>());
  app.get_formatter()->column_width(24);
  app.get_formatter()->label("Subcommands", "Commands");
  app.require_subcommand(1);
  app.fallthrough();  // --plugin-path is also taken after the command
  app.set_version_flag("--version",
                       std::string("bem-bench ") + bem::version_string + " (" + bem::abi_tag + ", plugin ABI " +
                           std::to_string(BEM_PLUGIN_ABI_VERSION) + ", " + BEM_GIT_REVISION + ")",
                       "the version, library ABI tag, plugin ABI and git revision");
  app.add_option_function<std::string>(
         "--plugin-path",
         [&c](const std::string& v) {
           for (auto& p : bem::detail::split_path_list(v)) {
             // A mistyped --plugin-path would only show later as "no plugin
             // provides task ..." (BEM_PLUGIN_PATH entries may be missing: it
             // is often shared).
             std::error_code ec;
             if (!fs::exists(p, ec)) throw CLI::ValidationError("--plugin-path", "no such file or directory: " + p);
             c.plugin_path.push_back(p);
           }
         },
         "a plugin file or directory, searched before\n$BEM_PLUGIN_PATH and the install directory\n"
         "(repeatable, or ':'-separated)")
      ->type_name("PATH")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  const std::string exit_status = "exit status: 0 success, 1 failed runs or failed gate, 2 usage or configuration error";

  auto* run = app.add_subcommand("run", "run a suite, write its records, metrics and report");
  run->add_option("SUITE.toml", c.suite_file, "the suite file (default: the embedded 'quick' suite)")->type_name("");
  run->add_option("--out", c.run.out_dir,
                  "where records go, DIR/results.jsonl, as they are measured;\nthen DIR/metrics.json and "
                  "DIR/report.html (default:\nresults/SUITE, or results/SUITE-2, -3, ... when it\nholds records)")
      ->type_name("DIR");
  run->add_option("--only", c.run.only, "runs whose \"LABEL/TASK/MODEL\" matches the glob")->type_name("GLOB");
  run->add_option_function<std::string>(
         "--shard",
         [&c](const std::string& v) {
           if (!parse_shard(v, c.run.shard_index, c.run.shard_count))
             throw CLI::ValidationError("--shard", "takes I/N with 0 <= I < N, got '" + v + "'");
         },
         "the I-th of N deterministic shards, 0 <= I < N")
      ->type_name("I/N");
  run->add_flag("--resume", c.run.resume,
                "keep finished runs in DIR and run only the others\n(without it, a DIR that holds records is refused)");
  auto* timeout = run->add_option("--run-timeout", c.run.run_timeout_s,
                                  "kill a run after S seconds and record it as failed\n(not with --in-process)")
                      ->type_name("S")
                      ->check(number_check(false));
  run->add_flag("--in-process", c.run.in_process,
                "run in the driver's own process, for a debugger\n(each run has a child process of its own "
                "otherwise,\nso a plugin that crashes fails only its run)")
      ->excludes(timeout);
  run->footer(exit_status);

  auto* list = app.add_subcommand("list", "tasks, models, plugins and where each came from");
  list->add_flag("--parameters", c.list_parameters,
                 "under each task, benchmark and model, its parameters:\nname, type, default, what it accepts, "
                 "what it does");
  list->footer(exit_status);

  auto* report = app.add_subcommand("report", "re-render metrics.json and report.html from records");
  report->add_option("DIR", c.report_dirs, "results directories (several: merge shards)")
      ->type_name("")
      ->required()
      ->check(CLI::ExistingDirectory);
  report->add_option("--out", c.report_out, "where to write (default: the first DIR)")->type_name("DIR");
  report->footer(exit_status);

  auto* compare = app.add_subcommand("compare", "regression gate on two metrics.json files or result directories");
  compare->add_option("BASELINE", c.baseline, "the baseline's metrics.json or results directory")->type_name("")->required();
  compare->add_option("CURRENT", c.current, "the current metrics.json or results directory")->type_name("")->required();
  compare->add_option("--max-drop", c.max_drop,
                      "exit 1 when a higher-is-better metric drops by more\nthan F (relative, default 0.05)")
      ->type_name("F")
      ->check(number_check(true));
  compare->add_flag("--include-timing", c.include_timing, "gate timing metrics too");
  compare->add_flag("--across-models", c.across_models,
                    "pair results whatever the model (a new model against\na baseline model, one model per file)");
  compare->footer(exit_status);

  auto* hwinfo = app.add_subcommand("hwinfo",
                                    "the hardware report: CPU, microarchitecture, SIMD width,\ncircuit code generator, "
                                    "base clock, TSC frequency, how\ncycles are counted");
  hwinfo->add_flag("--json", c.hwinfo_json, "as a JSON object");
  hwinfo->footer(exit_status);

  auto* log = app.add_subcommand("log", "a machine's trace log");
  log->require_subcommand(1);
  auto* verify = log->add_subcommand(
      "verify", "check a trace file (bem::machine's log_file): its hash\nchain and every segment's Merkle root; name "
                "the first\nbad entry, segment and byte");
  verify->add_option("FILE", c.log_file, "the trace file")->required();
  verify->footer("exit status: 0 valid, 1 a trace file with a problem (the first\nbad entry named), 2 not a trace "
                 "file or unreadable");

  std::string commands = "\ncommands ('bem-bench COMMAND --help' says more):\n";
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_subcommands({}).empty()) commands += "  " + synopsis(*sub) + "\n";
    for (const CLI::App* nested : sub->get_subcommands({})) commands += "  " + synopsis(*nested) + "\n";
  }
  app.footer(commands + "\n" + exit_status);
}

/// A usage error on stderr: the message, then the usage of the command the
/// parse reached.
int usage_error(const CLI::App& app, const std::string& message) {
  const CLI::App& at = reached(app);
  const std::string command = command_path(at);
  std::fprintf(stderr, "bem-bench: %s\nusage: %s\n('%s --help' says more)\n", message.c_str(), synopsis(at).c_str(),
               command.c_str());
  return 2;
}

/// Directories of the build tree's plugins when this binary runs uninstalled.
std::vector<std::string> plugin_dirs(const std::vector<std::string>& command_line) {
  std::string install = BEM_PLUGIN_INSTALL_DIR;
  std::error_code ec;
  const auto self = fs::canonical("/proc/self/exe", ec);
  const auto build_root = fs::weakly_canonical(BEM_BUILD_ROOT, ec);
  if (!self.empty() && !build_root.empty() &&
      self.string().rfind(build_root.string() + "/", 0) == 0)
    install = BEM_BUILD_PLUGIN_DIR;  // uninstalled: the build tree's plugins stand in for the install dir
  return bem::plugin_search_path(command_line, install);
}

void load_plugins(bem::plugin_registry& reg, const std::vector<std::string>& paths) {
  static constexpr auto majority = &bem::detail::model_adapter<bem::majority_class_model>::type;
  reg.add_builtin_model(majority);
  reg.load_search_path(plugin_dirs(paths));
}

/// The parameter rows a type declares (describe_parameters), indented under
/// its line: name, type, default ("*": it depends on the parameters above),
/// what it accepts, what it does.
template <class Type>
void print_parameters(const Type* type, const char* kind, const std::string& plugin) {
  std::string json;
  try {
    json = bem::describe_parameters(type, kind, plugin);
  } catch (const bem::plugin_error& e) {
    std::cout << "      (no parameter documentation: " << e.what() << ")\n";
    return;
  }
  if (json.empty()) {
    std::cout << "      (parameters not declared)\n";
    return;
  }
  for (const auto& row : bem::metrics::json::parse(json)) {
    const std::string fallback = row.at("default").dump() + (row.at("derived").get<bool>() ? "*" : "");
    std::cout << "      " << std::left << std::setw(21) << row.at("name").get<std::string>() << " " << std::setw(16)
              << row.at("type").get<std::string>() << " " << std::setw(20) << fallback << " " << std::setw(24)
              << row.at("accepts").get<std::string>() << " " << row.at("doc").get<std::string>() << "\n";
  }
}

int cmd_list(const std::vector<std::string>& paths, bool parameters) {
  bem::plugin_registry reg;
  load_plugins(reg, paths);
  if (parameters)
    std::cout << "(under each entry: parameter, type, default (*: depends on those above), accepts, meaning)\n";
  std::cout << "Tasks:\n";
  for (const auto& t : reg.tasks()) {
    std::cout << "  " << std::left << std::setw(16) << t.type->name << " v" << std::setw(4) << t.type->version
              << " plugin " << std::setw(10) << t.origin.plugin
              << (t.type->reference_model ? " [reference solver]  " : "                     ") << t.type->description
              << "\n";
    if (parameters) print_parameters(t.type, "task", t.origin.plugin);
  }
  std::cout << "Microbenchmarks (no model):\n";
  for (const auto& b : reg.benchmarks()) {
    std::cout << "  " << std::left << std::setw(16) << b.type->name << " v" << std::setw(4) << b.type->version
              << " plugin " << std::setw(10) << b.origin.plugin << " " << b.type->description << "\n";
    if (parameters) print_parameters(b.type, "benchmark", b.origin.plugin);
  }
  std::cout << "Models:\n";
  std::cout << "  " << std::left << std::setw(16) << "reference" << "      built-in  each task's exact solver (tasks marked [reference solver])\n";
  for (const auto& m : reg.models()) {
    std::cout << "  " << std::left << std::setw(16) << m.type->name << " v" << std::setw(4) << m.type->version
              << std::setw(9) << m.origin.plugin << " " << m.type->description << "\n";
    if (parameters) print_parameters(m.type, "model", m.origin.plugin);
  }
  std::cout << "Plugins:\n";
  for (const auto& p : reg.plugins())
    std::cout << "  " << std::left << std::setw(12) << p.plugin << " v" << std::setw(4) << p.plugin_version << " "
              << p.library_abi_tag << "  " << p.path << "\n";
  if (!reg.failures().empty()) {
    std::cout << "Plugins that failed to load:\n";
    for (const auto& f : reg.failures()) std::cout << "  " << f.describe() << "\n";
  }
  for (const auto& s : reg.shadowed()) std::cout << "Shadowed by an earlier search path entry: " << s << "\n";
  std::cout << "Search path:";
  for (const auto& d : reg.searched()) std::cout << " " << d;
  std::cout << "\n";
  return 0;
}

int cmd_run(const arguments& c, const std::vector<std::string>& argv) {
  run_options opt = c.run;
  const suite s = c.suite_file.empty() ? quick_suite() : load_suite_file(c.suite_file);
  if (opt.out_dir.empty()) {
    // The default folder never refuses a second run: results/NAME, else the
    // first of results/NAME-2, -3, ... that holds no records.
    opt.out_dir = "results/" + s.name;
    for (int n = 2; !opt.resume && holds_records(opt.out_dir); ++n) opt.out_dir = "results/" + s.name + "-" + std::to_string(n);
  }
  opt.progress_bar = isatty(STDERR_FILENO) != 0;

  bem::plugin_registry reg;
  load_plugins(reg, c.plugin_path);
  for (const auto& f : reg.failures()) std::fprintf(stderr, "warning: plugin %s\n", f.describe().c_str());
  validate_suite(s, reg);

  const run_totals t = run_suite(
      s, reg, opt,
      [&] {
        write_file_atomically((fs::path(opt.out_dir) / "context.json").string(),
                              build_context(s, argv, reg).dump(1) + "\n");
      },
      [&] { write_outputs({opt.out_dir}, opt.out_dir); });
  if (t.selected == 0 && !opt.only.empty())
    std::fprintf(stderr, "note: --only '%s' selects none of the suite's runs%s (the suite was checked)\n",
                 opt.only.c_str(), opt.shard_count > 1 ? " in this shard" : "");
  std::printf("%d runs: %d ok, %d failed, %d skipped (finished earlier)\n", t.selected, t.ok, t.failed, t.skipped);
  std::printf("results: %s/results.jsonl, %s/metrics.json, %s/report.html\n", opt.out_dir.c_str(), opt.out_dir.c_str(),
              opt.out_dir.c_str());
  return t.failed ? 1 : 0;
}

int cmd_report(const arguments& c) {
  const std::string out = c.report_out.empty() ? c.report_dirs.front() : c.report_out;
  write_outputs(c.report_dirs, out);
  std::printf("wrote %s/metrics.json and %s/report.html\n", out.c_str(), out.c_str());
  return 0;
}

int cmd_hwinfo(bool as_json) {
  const auto hw = bem::probe_hardware();
  if (as_json) {
    bem::metrics::json j = bem::metrics::json::object();
    for (const auto& [k, v] : bem::to_fields(hw)) j[k] = bem::metrics::json::parse(v);
    std::cout << j.dump(1) << "\n";
  } else {
    std::cout << bem::to_text(hw);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A calibration in the environment is meant for the plugins of the
  // bem-bench that put it there; one inherited from elsewhere (a shell, a
  // batch job submitted on another machine) would be taken on trust.
  ::unsetenv(bem::calibration_environment_variable);
  const std::vector<std::string> argv_copy(argv, argv + argc);
  CLI::App app("bem-bench: runs benchmark suites and writes honest, reproducible results.", "bem-bench");
  arguments c;
  declare(app, c);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();  // the help of the command reached
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return 0;
  } catch (const CLI::RequiredError& e) {
    // No command, or a word that is none: CLI11 says only that one is required.
    if (app.get_subcommands().empty()) {
      const auto rest = app.remaining();
      return usage_error(app, rest.empty()                 ? std::string("no command given")
                              : rest.front().rfind("-", 0) == 0 ? "unknown option '" + rest.front() + "'"
                                                                : "unknown command '" + rest.front() + "'");
    }
    return usage_error(app, e.what());
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e.what());
  }
  try {
    const std::string command = reached(app).get_name();
    if (command == "run") {
      bem::share_calibration_with_plugins();  // one TSC-to-cycle ratio for the driver and every plugin
      return cmd_run(c, argv_copy);
    }
    if (command == "list") return cmd_list(c.plugin_path, c.list_parameters);
    if (command == "report") return cmd_report(c);
    if (command == "compare")
      return compare_metrics(c.baseline, c.current, c.max_drop, c.include_timing, c.across_models, std::cout);
    if (command == "verify") return bem::detail::trace_file_verify_main(c.log_file, std::cout);
    return cmd_hwinfo(c.hwinfo_json);
  } catch (const config_error& e) {
    std::fprintf(stderr, "bem-bench: configuration error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bem-bench: error: %s\n", e.what());
    return 2;
  }
}
