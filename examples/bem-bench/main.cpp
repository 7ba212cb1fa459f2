// bem-bench: runs benchmark suites and writes honest, reproducible results.
#include "report.hpp"
#include "runner.hpp"
#include "suite.hpp"

#include "build_info.hpp"

#include <bem/harness/baselines.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/platform/hwinfo.hpp>
#include <bem/plugin/adapter.hpp>
#include <bem/plugin/host.hpp>
#include <bem/version.hpp>

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

constexpr const char* usage = R"(usage: bem-bench [--plugin-path PATH]... COMMAND [ARGS]

commands:
  run [SUITE.toml] [--out DIR] [--only GLOB] [--shard I/N] [--resume]
      [--run-timeout S] [--in-process]
        run a suite (default: the embedded 'quick' suite); records go to
        DIR/results.jsonl as they are measured (default DIR: results/SUITE,
        or results/SUITE-2, -3, ... when it holds records), then
        DIR/metrics.json and DIR/report.html are written.
        --only GLOB   runs whose "LABEL/TASK/MODEL" matches the glob
        --shard I/N   the I-th of N deterministic shards, 0 <= I < N
        --resume      keep finished runs in DIR and run only the others
                      (without it, a DIR that holds records is refused)
        --run-timeout S   kill a run after S seconds and record it as failed
        --in-process  run in the driver's own process, for a debugger (each
                      run has a child process of its own otherwise, so a
                      plugin that crashes fails only its run)
  list                tasks, models and plugins, with where each came from
  report DIR [DIR...] [--out DIR]
                      re-render metrics.json and report.html from records
                      (several DIRs: merge shards)
  compare BASELINE CURRENT [--max-drop F] [--include-timing] [--across-models]
                      regression gate on two metrics.json files (or result
                      directories): exit 1 when a higher-is-better metric
                      drops by more than F (relative, default 0.05);
                      --across-models pairs results whatever the model (a new
                      model against a baseline model, one model per file)
  hwinfo [--json]     the hardware report (CPU, microarchitecture, SIMD width,
                      circuit code generator, base clock, TSC frequency, how
                      cycles are counted)

options:
  --plugin-path PATH  a plugin file or directory, searched before
                      $BEM_PLUGIN_PATH and the install directory (repeatable,
                      or ':'-separated)
  --help, --version

exit status: 0 success, 1 failed runs or failed gate, 2 usage or configuration error
)";

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

int cmd_list(const std::vector<std::string>& paths) {
  bem::plugin_registry reg;
  load_plugins(reg, paths);
  std::cout << "Tasks:\n";
  for (const auto& t : reg.tasks())
    std::cout << "  " << std::left << std::setw(16) << t.type->name << " v" << std::setw(4) << t.type->version
              << " plugin " << std::setw(10) << t.origin.plugin
              << (t.type->reference_model ? " [reference solver]  " : "                     ") << t.type->description
              << "\n";
  std::cout << "Microbenchmarks (no model):\n";
  for (const auto& b : reg.benchmarks())
    std::cout << "  " << std::left << std::setw(16) << b.type->name << " v" << std::setw(4) << b.type->version
              << " plugin " << std::setw(10) << b.origin.plugin << " " << b.type->description << "\n";
  std::cout << "Models:\n";
  std::cout << "  " << std::left << std::setw(16) << "reference" << "      built-in  each task's exact solver (tasks marked [reference solver])\n";
  for (const auto& m : reg.models())
    std::cout << "  " << std::left << std::setw(16) << m.type->name << " v" << std::setw(4) << m.type->version
              << std::setw(9) << m.origin.plugin << " " << m.type->description << "\n";
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

int cmd_run(const std::vector<std::string>& args, const std::vector<std::string>& paths,
            const std::vector<std::string>& command_line) {
  run_options opt;
  std::string suite_file;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw usage_error(a + " needs a value");
      return args[++i];
    };
    if (a == "--out") opt.out_dir = value();
    else if (a == "--only") opt.only = value();
    else if (a == "--resume") opt.resume = true;
    else if (a == "--in-process") opt.in_process = true;
    else if (a == "--run-timeout") {
      const std::string v = value();
      char* end = nullptr;
      opt.run_timeout_s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(opt.run_timeout_s > 0) || !std::isfinite(opt.run_timeout_s))
        throw usage_error("--run-timeout takes a positive number of seconds, got '" + v + "'");
    } else if (a == "--shard") {
      const std::string v = value();
      const auto slash = v.find('/');
      const auto whole_int = [](std::string_view t, int& out) {
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
        return !t.empty() && ec == std::errc() && end == t.data() + t.size();
      };
      int index = -1, count = 0;
      if (slash == std::string::npos || !whole_int(std::string_view(v).substr(0, slash), index) ||
          !whole_int(std::string_view(v).substr(slash + 1), count) || count < 1 || index < 0 || index >= count)
        throw usage_error("--shard takes I/N with 0 <= I < N, got '" + v + "'");
      opt.shard_index = index;
      opt.shard_count = count;
    } else if (!a.empty() && a[0] == '-') throw usage_error("run: unknown option " + a);
    else if (suite_file.empty()) suite_file = a;
    else throw usage_error("run takes one suite file, got '" + suite_file + "' and '" + a + "'");
  }
  const suite s = suite_file.empty() ? quick_suite() : load_suite_file(suite_file);
  if (opt.in_process && opt.run_timeout_s > 0)
    throw usage_error("--run-timeout needs runs in child processes; it cannot be combined with --in-process");
  if (opt.out_dir.empty()) {
    // The default folder never refuses a second run: results/NAME, else the
    // first of results/NAME-2, -3, ... that holds no records.
    opt.out_dir = "results/" + s.name;
    for (int n = 2; !opt.resume && holds_records(opt.out_dir); ++n) opt.out_dir = "results/" + s.name + "-" + std::to_string(n);
  }
  opt.progress_bar = isatty(STDERR_FILENO) != 0;

  bem::plugin_registry reg;
  load_plugins(reg, paths);
  for (const auto& f : reg.failures()) std::fprintf(stderr, "warning: plugin %s\n", f.describe().c_str());
  validate_suite(s, reg);

  const run_totals t = run_suite(s, reg, opt, [&] {
    std::ofstream ctx(fs::path(opt.out_dir) / "context.json");
    ctx << build_context(s, command_line, reg).dump(1) << "\n";
  });
  if (t.selected == 0 && !opt.only.empty())
    std::fprintf(stderr, "note: --only '%s' selects none of the suite's runs%s (the suite was checked)\n",
                 opt.only.c_str(), opt.shard_count > 1 ? " in this shard" : "");
  write_outputs({opt.out_dir}, opt.out_dir);
  std::printf("%d runs: %d ok, %d failed, %d skipped (finished earlier)\n", t.selected, t.ok, t.failed, t.skipped);
  std::printf("results: %s/results.jsonl, %s/metrics.json, %s/report.html\n", opt.out_dir.c_str(), opt.out_dir.c_str(),
              opt.out_dir.c_str());
  return t.failed ? 1 : 0;
}

int cmd_report(const std::vector<std::string>& args) {
  std::vector<std::string> dirs;
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--out") {
      if (i + 1 >= args.size()) throw usage_error("--out needs a value");
      out = args[++i];
    } else if (!args[i].empty() && args[i][0] == '-') {
      throw usage_error("report: unknown option " + args[i]);
    } else {
      dirs.push_back(args[i]);
    }
  }
  if (dirs.empty()) throw usage_error("report needs a results directory");
  for (const auto& d : dirs)
    if (!fs::is_directory(d)) throw usage_error("report: '" + d + "' is not a directory");
  write_outputs(dirs, out.empty() ? dirs.front() : out);
  std::printf("wrote %s/metrics.json and %s/report.html\n", (out.empty() ? dirs.front() : out).c_str(),
              (out.empty() ? dirs.front() : out).c_str());
  return 0;
}

int cmd_compare(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  double max_drop = 0.05;
  bool include_timing = false, across_models = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--max-drop") {
      if (i + 1 >= args.size()) throw usage_error("--max-drop needs a value");
      char* end = nullptr;
      max_drop = std::strtod(args[++i].c_str(), &end);
      if (end == args[i].c_str() || *end != '\0' || !(max_drop >= 0))
        throw usage_error("--max-drop takes a non-negative number, got '" + args[i] + "'");
    } else if (args[i] == "--include-timing") {
      include_timing = true;
    } else if (args[i] == "--across-models") {
      across_models = true;
    } else if (!args[i].empty() && args[i][0] == '-') {
      throw usage_error("compare: unknown option " + args[i]);
    } else {
      files.push_back(args[i]);
    }
  }
  if (files.size() != 2) throw usage_error("compare needs BASELINE and CURRENT");
  return compare_metrics(files[0], files[1], max_drop, include_timing, across_models, std::cout);
}

int cmd_hwinfo(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i)  // at most one argument, --json
    if (i > 0 || args[i] != "--json") throw usage_error("hwinfo: unknown argument " + args[i]);
  const auto hw = bem::probe_hardware();
  if (!args.empty()) {
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
  std::vector<std::string> all(argv + 1, argv + argc), command_line(argv, argv + argc), paths, rest;
  std::string command;
  try {
    for (std::size_t i = 0; i < all.size(); ++i) {
      const std::string& a = all[i];
      if (a == "--plugin-path") {
        if (i + 1 >= all.size()) throw usage_error("--plugin-path needs a value");
        for (auto& p : bem::detail::split_path_list(all[++i])) paths.push_back(p);
      } else if (a.rfind("--plugin-path=", 0) == 0) {
        for (auto& p : bem::detail::split_path_list(a.substr(14))) paths.push_back(p);
      } else if (command.empty() && (a == "--help" || a == "-h")) {
        std::cout << usage;
        return 0;
      } else if (command.empty() && a == "--version") {
        std::cout << "bem-bench " << bem::version_string << " (" << bem::abi_tag << ", plugin ABI "
                  << BEM_PLUGIN_ABI_VERSION << ", " << BEM_GIT_REVISION << ")\n";
        return 0;
      } else if (command.empty()) {
        if (!a.empty() && a[0] == '-') throw usage_error("unknown option " + a);
        command = a;
      } else {
        rest.push_back(a);
      }
    }
    if (command.empty()) throw usage_error("no command given");
    // A mistyped --plugin-path would only show later as "no plugin provides
    // task ..." (BEM_PLUGIN_PATH entries may be missing: it is often shared).
    for (const auto& p : paths) {
      std::error_code ec;
      if (!fs::exists(p, ec)) throw usage_error("--plugin-path: no such file or directory: " + p);
    }
    if (command == "run") {
      bem::share_calibration_with_plugins();  // one TSC-to-cycle ratio for the driver and every plugin
      return cmd_run(rest, paths, command_line);
    }
    if (command == "list") {
      if (!rest.empty()) throw usage_error("list takes no arguments, got '" + rest.front() + "'");
      return cmd_list(paths);
    }
    if (command == "report") return cmd_report(rest);
    if (command == "compare") return cmd_compare(rest);
    if (command == "hwinfo") return cmd_hwinfo(rest);
    throw usage_error("unknown command '" + command + "'");
  } catch (const usage_error& e) {
    std::fprintf(stderr, "bem-bench: %s\n\n%s", e.what(), usage);
    return 2;
  } catch (const config_error& e) {
    std::fprintf(stderr, "bem-bench: configuration error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bem-bench: error: %s\n", e.what());
    return 2;
  }
}
