#include "suite.hpp"

#include "quick_suite.hpp"  // generated from configs/quick.toml

#include <bem/plugin/toml_parameters.hpp>

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace bench_driver {

namespace {

source_location where_of(const toml::node& n, const std::string& file) {
  const auto& r = n.source();
  return {file, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
}

[[noreturn]] void fail(const toml::node& n, const std::string& file, const std::string& what) {
  throw config_error(where_of(n, file).str() + ": " + what);
}

void check_keys(const toml::table& t, const std::string& file, const std::string& context,
                const std::set<std::string>& allowed) {
  for (auto&& [k, v] : t) {
    if (!allowed.count(std::string(k.str()))) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      const source_location at{file, static_cast<int>(k.source().begin.line), static_cast<int>(k.source().begin.column)};
      throw config_error(at.str() + ": unknown key '" + std::string(k.str()) + "' in " + context + " (allowed: " + list + ")");
    }
  }
}

std::int64_t get_count(const toml::node& n, const std::string& file, const std::string& key, std::int64_t lo,
                       std::int64_t hi = std::numeric_limits<std::int64_t>::max()) {
  auto v = n.as_integer();
  if (!v) fail(n, file, "'" + key + "' must be an integer");
  if (v->get() < lo) fail(n, file, "'" + key + "' must be at least " + std::to_string(lo));
  if (v->get() > hi) fail(n, file, "'" + key + "' must be at most " + std::to_string(hi));
  return v->get();
}

/// The sequences of one batch are counted in 32 bits across the plugin ABI.
constexpr std::int64_t max_batch = std::numeric_limits<std::int32_t>::max();

const std::set<std::string> protocol_keys = {"batch_size", "train_sequences", "epochs", "validation_sequences",
                                             "patience", "test_sequences", "diagnostic_sequences",
                                             "restore_best"};

void apply_protocol_key(protocol& p, const std::string& key, const toml::node& n, const std::string& file) {
  if (key == "batch_size") p.batch_size = get_count(n, file, key, 1, max_batch);
  else if (key == "train_sequences") p.train_sequences = get_count(n, file, key, 0);
  else if (key == "epochs") p.epochs = get_count(n, file, key, 1);
  else if (key == "validation_sequences") p.validation_sequences = get_count(n, file, key, 0);
  else if (key == "patience") p.patience = get_count(n, file, key, 0);
  else if (key == "test_sequences") p.test_sequences = get_count(n, file, key, 1);
  else if (key == "diagnostic_sequences") p.diagnostic_sequences = get_count(n, file, key, 0, max_batch);  // one batch
  else if (key == "restore_best") {
    auto b = n.as_boolean();
    if (!b) fail(n, file, "'restore_best' must be true or false");
    p.restore_best = b->get();
  }
}

std::vector<std::uint64_t> get_seeds(const toml::node& n, const std::string& file) {
  std::vector<std::uint64_t> out;
  if (auto i = n.as_integer()) {
    if (i->get() < 0) fail(n, file, "'seeds' must be non-negative integers");
    return {static_cast<std::uint64_t>(i->get())};
  }
  auto a = n.as_array();
  if (!a || a->empty()) fail(n, file, "'seeds' must be a non-empty list of integers");
  for (auto& e : *a) {
    auto i = e.as_integer();
    if (!i || i->get() < 0) fail(e, file, "'seeds' must be non-negative integers");
    out.push_back(static_cast<std::uint64_t>(i->get()));
  }
  return out;
}

std::vector<std::string> get_names(const toml::node& n, const std::string& file, const std::string& key) {
  if (auto s = n.as_string()) return {s->get()};
  auto a = n.as_array();
  if (!a || a->empty()) fail(n, file, "'" + key + "' must be a string or a non-empty list of strings");
  std::vector<std::string> out;
  for (auto& e : *a) {
    auto s = e.as_string();
    if (!s) fail(e, file, "'" + key + "' must hold strings");
    out.push_back(s->get());
  }
  return out;
}

const toml::table& get_table(const toml::node& n, const std::string& file, const std::string& key) {
  auto t = n.as_table();
  if (!t) fail(n, file, "'" + key + "' must be a table");
  return *t;
}

std::map<std::string, bem::parameter_value> params_of(const toml::table& t, const std::string& file,
                                                      const std::string& prefix, run_spec& proto_run) {
  std::map<std::string, bem::parameter_value> out;
  for (auto&& [k, v] : t) {
    const std::string key(k.str());
    try {
      out[key] = bem::detail::parameter_from_node(key, v);
    } catch (const bem::parameter_error& e) {
      fail(v, file, e.what());
    }
    proto_run.key_where[prefix + "." + key] = where_of(v, file);
  }
  return out;
}

/// One axis of a sweep: a key and the values it takes.
struct sweep_axis {
  std::string table;  // "params", "model_params" or "protocol"
  std::string key;
  std::vector<const toml::node*> values;
};

}  // namespace

std::map<std::string, bem::parameter_value> protocol::as_values() const {
  return {{"batch_size", batch_size},     {"train_sequences", train_sequences},
          {"epochs", epochs},             {"validation_sequences", validation_sequences},
          {"patience", patience},         {"test_sequences", test_sequences},
          {"diagnostic_sequences", diagnostic_sequences}, {"restore_best", restore_best}};
}

source_location locate(const run_spec& run, const std::string& table, const std::string& key) {
  if (auto it = run.key_where.find(table + "." + key); it != run.key_where.end()) return it->second;
  return run.where;
}

suite parse_suite(const std::string& text, const std::string& file) {
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw config_error(file + ":" + std::to_string(e.source().begin.line) + ":" +
                       std::to_string(e.source().begin.column) + ": " + std::string(e.description()));
  }
  check_keys(root, file, "the suite", {"name", "description", "defaults", "run"});
  suite s;
  s.source = file;
  if (auto n = root.get("name")) {
    if (!n->as_string()) fail(*n, file, "'name' must be a string");
    s.name = n->as_string()->get();
  } else {
    throw config_error(file + ":1:1: the suite needs a 'name'");
  }
  if (auto n = root.get("description")) {
    if (!n->as_string()) fail(*n, file, "'description' must be a string");
    s.description = n->as_string()->get();
  }

  protocol defaults;
  std::vector<std::uint64_t> default_seeds = {1};
  if (auto n = root.get("defaults")) {
    const auto& d = get_table(*n, file, "defaults");
    std::set<std::string> allowed = protocol_keys;
    allowed.insert("seeds");
    check_keys(d, file, "[defaults]", allowed);
    for (auto&& [k, v] : d) {
      const std::string key(k.str());
      if (key == "seeds") default_seeds = get_seeds(v, file);
      else apply_protocol_key(defaults, key, v, file);
    }
  }

  auto runs_node = root.get("run");
  if (!runs_node) throw config_error(file + ":1:1: the suite has no [[run]] entries");
  auto runs = runs_node->as_array();
  if (!runs) fail(*runs_node, file, "'run' must be an array of tables ([[run]])");
  std::set<std::string> run_allowed = protocol_keys;
  for (const char* k : {"name", "task", "tasks", "model", "models", "seeds", "params", "model_params", "sweep"})
    run_allowed.insert(k);

  std::size_t index = 0;
  std::map<std::string, std::string> identities;  // of the runs so far -> where they were written
  for (auto& rn : *runs) {
    ++index;
    auto rt = rn.as_table();
    if (!rt) fail(rn, file, "each [[run]] must be a table");
    check_keys(*rt, file, "[[run]]", run_allowed);
    run_spec base;
    base.where = where_of(rn, file);
    base.label = "run" + std::to_string(index);
    protocol p = defaults;
    std::vector<std::uint64_t> seeds = default_seeds;
    std::vector<std::string> tasks, models;
    std::vector<sweep_axis> axes;
    for (auto&& [k, v] : *rt) {
      const std::string key(k.str());
      if (key == "name") {
        if (!v.as_string()) fail(v, file, "'name' must be a string");
        base.label = v.as_string()->get();
      } else if (key == "task" || key == "tasks") {
        if (!tasks.empty()) fail(v, file, "give either 'task' or 'tasks', not both");
        tasks = get_names(v, file, key);
      } else if (key == "model" || key == "models") {
        if (!models.empty()) fail(v, file, "give either 'model' or 'models', not both");
        models = get_names(v, file, key);
      } else if (key == "seeds") {
        seeds = get_seeds(v, file);
      } else if (key == "params") {
        base.task_params = params_of(get_table(v, file, key), file, "params", base);
      } else if (key == "model_params") {
        base.model_params = params_of(get_table(v, file, key), file, "model_params", base);
      } else if (key == "sweep") {
        const auto& sw = get_table(v, file, key);
        check_keys(sw, file, "[run.sweep]", {"params", "model_params", "protocol"});
        for (auto&& [sk, sv] : sw) {
          const std::string table(sk.str());
          const auto& st = get_table(sv, file, "sweep." + table);
          if (table == "protocol") check_keys(st, file, "[run.sweep.protocol]", protocol_keys);
          for (auto&& [ak, av] : st) {
            auto arr = av.as_array();
            if (!arr || arr->empty())
              fail(av, file, "sweep." + table + "." + std::string(ak.str()) + " must be a non-empty list of values");
            sweep_axis axis{table, std::string(ak.str()), {}};
            for (auto& e : *arr) axis.values.push_back(&e);
            axes.push_back(std::move(axis));
          }
        }
      } else {
        apply_protocol_key(p, key, v, file);
        base.key_where["protocol." + key] = where_of(v, file);
      }
    }
    if (tasks.empty()) fail(rn, file, "the run needs 'task' or 'tasks'");
    if (models.empty()) models = {"none"};  // microbenchmarks take no model

    // Expand: tasks x sweep combinations x models x seeds, in file order.
    std::vector<std::size_t> pick(axes.size(), 0);
    std::vector<run_spec> combos;
    while (true) {
      run_spec c = base;
      c.proto = p;
      for (std::size_t a = 0; a < axes.size(); ++a) {
        const toml::node& val = *axes[a].values[pick[a]];
        const std::string& key = axes[a].key;
        if (base.key_where.count(axes[a].table + "." + key))
          fail(val, file, "'" + key + "' is both fixed in the run and swept");
        if (axes[a].table == "protocol") {
          apply_protocol_key(c.proto, key, val, file);
        } else {
          bem::parameter_value pv;
          try {
            pv = bem::detail::parameter_from_node(key, val);
          } catch (const bem::parameter_error& e) {
            fail(val, file, e.what());
          }
          auto& target = axes[a].table == "params" ? c.task_params : c.model_params;
          target[key] = pv;
          c.key_where[axes[a].table + "." + key] = where_of(val, file);
        }
      }
      combos.push_back(std::move(c));
      std::size_t a = 0;
      for (; a < axes.size(); ++a) {
        if (++pick[a] < axes[a].values.size()) break;
        pick[a] = 0;
      }
      if (a == axes.size()) break;
    }
    for (const auto& task : tasks)
      for (const auto& combo : combos)
        for (const auto& model : models)
          for (auto seed : seeds) {
            run_spec r = combo;
            r.task = task;
            r.model = model;
            r.seed = seed;
            // The same run twice would be one measurement counted twice in
            // the summaries (a seed listed twice, a sweep value repeated, a
            // [[run]] copied): refused here, where it can be named.
            const std::string identity = task + "\n" + model + "\n" + bem::parameters_to_json(r.task_params) + "\n" +
                                         bem::parameters_to_json(r.model_params) + "\n" +
                                         bem::parameters_to_json(r.proto.as_values()) + "\n" + std::to_string(seed);
            if (const auto [it, fresh] = identities.emplace(identity, r.where.str() + " (run '" + r.label + "')");
                !fresh)
              fail(rn, file, "this run repeats " + task + " x " + model + " with seed " + std::to_string(seed) +
                                 " and the same parameters as " + it->second +
                                 "; a repeat would count one measurement twice");
            s.runs.push_back(std::move(r));
          }
  }
  return s;
}

suite load_suite_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw config_error(path + ":0:0: is a directory, not a suite file");
  std::ifstream in(path);
  if (!in) throw config_error(path + ":0:0: cannot read the suite file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_suite(ss.str(), path);
}

suite quick_suite() { return parse_suite(embedded_quick_suite, "<embedded quick suite>"); }

}  // namespace bench_driver
