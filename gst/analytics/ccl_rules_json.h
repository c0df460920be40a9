// cclanalytics' rules as JSON (docs/elements/cclanalytics.md) -> ccl::scene::Rules. Unknown keys are
// errors (a typo must not silently do nothing); every error names the rule and the field.
#pragma once

#include <string>

#include "analytics/rules.hpp"

struct CclParsedRules {
  ccl::scene::Rules rules;
  double hysteresis = -1;  // "hysteresis" in pixels; < 0: the engine's default
};

// "" and *out filled when `json` gives usable rules (parsed, then ccl::scene::validate()), else what
// is wrong, e.g. `zones[1] "lot": "polygon" needs at least 3 points`. An empty or blank string is no rules.
std::string ccl_rules_from_json(const std::string& json, CclParsedRules* out);

// The same from a file; errors start with the path.
std::string ccl_rules_from_file(const std::string& path, CclParsedRules* out);

// Which of cclanalytics' properties gave the rules last: that one applies.
enum class CclRulesSource { String, File };

// The rules of `source`: `file` where it is File and `file` is set, else `json`.
std::string ccl_rules_from_source(CclRulesSource source, const std::string& json, const std::string& file,
                                  CclParsedRules* out);
