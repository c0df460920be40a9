#include "ccl_rules_json.h"

#include <json-glib/json-glib.h>

#include <cmath>
#include <initializer_list>
#include <memory>

namespace {

using ccl::scene::Anchor;
using ccl::scene::Point;

struct GObjectUnref {
  void operator()(gpointer p) const { g_object_unref(p); }
};

// Thrown inside the parser, caught at its top: one error ends the parse.
struct Bad {
  std::string what;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw Bad{where.empty() ? what : where + ": " + what}; }

std::string quoted(const char* key) { return std::string("\"") + key + "\""; }

// Every member of `object` must be one of `known`.
void only_known(JsonObject* object, const std::string& where, std::initializer_list<const char*> known) {
  GList* members = json_object_get_members(object);
  std::string unknown;
  for (GList* l = members; l && unknown.empty(); l = l->next) {
    bool ok = false;
    for (const char* k : known) ok |= g_strcmp0(k, static_cast<const char*>(l->data)) == 0;
    if (!ok) unknown = static_cast<const char*>(l->data);
  }
  g_list_free(members);
  if (unknown.empty()) return;
  std::string list;
  for (const char* k : known) list += (list.empty() ? "" : ", ") + quoted(k);
  fail(where, "unknown key " + quoted(unknown.c_str()) + " (known: " + list + ")");
}

bool is_number(JsonNode* node) {
  if (!node || !JSON_NODE_HOLDS_VALUE(node)) return false;
  const GType t = json_node_get_value_type(node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

double number(JsonNode* node, const std::string& where, const char* key) {
  if (!is_number(node)) fail(where, quoted(key) + " must be a number");
  const double v = json_node_get_double(node);
  if (!std::isfinite(v)) fail(where, quoted(key) + " must be finite");
  return v;
}

double non_negative(JsonObject* o, const std::string& where, const char* key) {
  const double v = number(json_object_get_member(o, key), where, key);
  if (v < 0) fail(where, quoted(key) + " must be >= 0");
  return v;
}

std::string string_member(JsonObject* o, const std::string& where, const char* key) {
  JsonNode* node = json_object_get_member(o, key);
  if (!node || !JSON_NODE_HOLDS_VALUE(node) || json_node_get_value_type(node) != G_TYPE_STRING)
    fail(where, quoted(key) + " must be a string");
  return json_node_get_string(node);
}

Anchor anchor_of(JsonObject* o, const std::string& where) {
  const std::string a = string_member(o, where, "anchor");
  if (a == "bottom-center") return Anchor::BottomCenter;
  if (a == "center") return Anchor::Center;
  if (a == "box") return Anchor::Box;
  fail(where, "\"anchor\" must be \"bottom-center\", \"center\" or \"box\", not \"" + a + "\"");
}

Point point_of(JsonNode* node, const std::string& where, const std::string& field) {
  JsonArray* a = node && JSON_NODE_HOLDS_ARRAY(node) ? json_node_get_array(node) : nullptr;
  if (!a || json_array_get_length(a) != 2 || !is_number(json_array_get_element(a, 0)) ||
      !is_number(json_array_get_element(a, 1)))
    fail(where, field + " must be [x, y]");
  const Point p{json_array_get_double_element(a, 0), json_array_get_double_element(a, 1)};
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) fail(where, field + " must be finite");
  return p;
}

JsonArray* array_member(JsonObject* o, const char* key) {
  JsonNode* node = json_object_get_member(o, key);
  if (!node) return nullptr;
  if (!JSON_NODE_HOLDS_ARRAY(node)) fail("", quoted(key) + " must be an array");
  return json_node_get_array(node);
}

// `lines[0] "door"` (or `lines[0]` while the name is unknown).
std::string rule_where(const char* kind, guint i, JsonObject* rule) {
  std::string where = std::string(kind) + "[" + std::to_string(i) + "]";
  JsonNode* name = rule ? json_object_get_member(rule, "name") : nullptr;
  if (name && JSON_NODE_HOLDS_VALUE(name) && json_node_get_value_type(name) == G_TYPE_STRING)
    where += " \"" + std::string(json_node_get_string(name)) + "\"";
  return where;
}

JsonObject* rule_object(JsonArray* rules, guint i, const char* kind) {
  JsonNode* node = json_array_get_element(rules, i);
  if (!JSON_NODE_HOLDS_OBJECT(node)) fail(rule_where(kind, i, nullptr), "must be an object");
  return json_node_get_object(node);
}

std::string name_of(JsonObject* o, const std::string& where) {
  if (!json_object_has_member(o, "name")) fail(where, "\"name\" is missing");
  const std::string name = string_member(o, where, "name");
  if (name.empty()) fail(where, "\"name\" must not be empty");
  return name;
}

void parse(JsonObject* root, CclParsedRules* out) {
  only_known(root, "", {"anchor", "units", "hysteresis", "lines", "zones"});
  const Anchor anchor = json_object_has_member(root, "anchor") ? anchor_of(root, "") : Anchor::BottomCenter;
  enum class Units { Auto, Pixels, Normalized } units = Units::Auto;
  if (json_object_has_member(root, "units")) {
    const std::string u = string_member(root, "", "units");
    if (u == "pixels")
      units = Units::Pixels;
    else if (u == "normalized")
      units = Units::Normalized;
    else
      fail("", "\"units\" must be \"pixels\" or \"normalized\", not \"" + u + "\"");
  }
  if (json_object_has_member(root, "hysteresis")) out->hysteresis = non_negative(root, "", "hysteresis");

  // Where each coordinate came from, so "normalized" can name one out of 0..1.
  struct Coordinate {
    Point p;
    std::string where, field;
  };
  std::vector<Coordinate> coordinates;

  if (JsonArray* lines = array_member(root, "lines"))
    for (guint i = 0; i < json_array_get_length(lines); ++i) {
      JsonObject* o = rule_object(lines, i, "lines");
      const std::string where = rule_where("lines", i, o);
      only_known(o, where, {"name", "from", "to", "anchor"});
      ccl::scene::LineRule r;
      r.name = name_of(o, where);
      r.from = point_of(json_object_get_member(o, "from"), where, "\"from\"");
      r.to = point_of(json_object_get_member(o, "to"), where, "\"to\"");
      r.anchor = json_object_has_member(o, "anchor") ? anchor_of(o, where) : anchor;
      coordinates.push_back({r.from, where, "\"from\""});
      coordinates.push_back({r.to, where, "\"to\""});
      out->rules.lines.push_back(r);
    }
  if (JsonArray* zones = array_member(root, "zones"))
    for (guint i = 0; i < json_array_get_length(zones); ++i) {
      JsonObject* o = rule_object(zones, i, "zones");
      const std::string where = rule_where("zones", i, o);
      only_known(o, where, {"name", "polygon", "anchor", "dwell", "max-objects", "overcrowd-time"});
      ccl::scene::ZoneRule r;
      r.name = name_of(o, where);
      JsonNode* polygon = json_object_get_member(o, "polygon");
      if (!polygon || !JSON_NODE_HOLDS_ARRAY(polygon)) fail(where, "\"polygon\" must be an array of [x, y]");
      JsonArray* corners = json_node_get_array(polygon);
      if (json_array_get_length(corners) < 3) fail(where, "\"polygon\" needs at least 3 points");
      for (guint k = 0; k < json_array_get_length(corners); ++k) {
        const std::string field = "\"polygon\"[" + std::to_string(k) + "]";
        r.polygon.push_back(point_of(json_array_get_element(corners, k), where, field));
        coordinates.push_back({r.polygon.back(), where, field});
      }
      r.anchor = json_object_has_member(o, "anchor") ? anchor_of(o, where) : anchor;
      if (json_object_has_member(o, "dwell")) r.dwell = non_negative(o, where, "dwell");
      if (json_object_has_member(o, "max-objects")) {
        JsonNode* n = json_object_get_member(o, "max-objects");
        if (!is_number(n) || json_node_get_value_type(n) != G_TYPE_INT64 || json_node_get_int(n) < 0 ||
            json_node_get_int(n) > G_MAXUINT)
          fail(where, "\"max-objects\" must be an integer >= 0");
        r.max_objects = unsigned(json_node_get_int(n));
      }
      if (json_object_has_member(o, "overcrowd-time")) r.overcrowd_time = non_negative(o, where, "overcrowd-time");
      if (json_object_has_member(o, "overcrowd-time") && r.max_objects == 0)
        fail(where, "\"overcrowd-time\" needs \"max-objects\"");
      out->rules.zones.push_back(r);
    }

  auto in_unit = [](const Point& p) { return p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1; };
  bool all_in_unit = true;
  for (const Coordinate& c : coordinates) all_in_unit &= in_unit(c.p);
  if (units == Units::Normalized)
    for (const Coordinate& c : coordinates)
      if (!in_unit(c.p)) fail(c.where, c.field + " must be within 0..1 (\"units\": \"normalized\")");
  out->rules.normalized = units == Units::Normalized || (units == Units::Auto && all_in_unit && !coordinates.empty());
}

}  // namespace

std::string ccl_rules_from_json(const std::string& json, CclParsedRules* out) {
  *out = CclParsedRules{};
  if (json.find_first_not_of(" \t\r\n") == std::string::npos) return "";
  std::unique_ptr<JsonParser, GObjectUnref> parser(json_parser_new());
  GError* error = nullptr;
  if (!json_parser_load_from_data(parser.get(), json.c_str(), gssize(json.size()), &error)) {
    std::string what = std::string("not valid JSON: ") + (error ? error->message : "?");
    g_clear_error(&error);
    return what;
  }
  JsonNode* root = json_parser_get_root(parser.get());
  if (!root || !JSON_NODE_HOLDS_OBJECT(root)) return "the rules must be a JSON object";
  try {
    parse(json_node_get_object(root), out);
  } catch (const Bad& bad) {
    *out = CclParsedRules{};
    return bad.what;
  }
  const std::string invalid = ccl::scene::validate(out->rules);
  if (!invalid.empty()) *out = CclParsedRules{};
  return invalid;
}

std::string ccl_rules_from_file(const std::string& path, CclParsedRules* out) {
  *out = CclParsedRules{};
  gchar* text = nullptr;
  gsize length = 0;
  GError* error = nullptr;
  if (!g_file_get_contents(path.c_str(), &text, &length, &error)) {
    std::string what = path + ": " + (error ? error->message : "cannot read");
    g_clear_error(&error);
    return what;
  }
  const std::string json(text, length);
  g_free(text);
  const std::string what = ccl_rules_from_json(json, out);
  return what.empty() ? what : path + ": " + what;
}

std::string ccl_rules_from_source(CclRulesSource source, const std::string& json, const std::string& file,
                                  CclParsedRules* out) {
  if (source == CclRulesSource::File && !file.empty()) return ccl_rules_from_file(file, out);
  return ccl_rules_from_json(json, out);
}
