#include <impactset/robots/internal/model_text.hpp>

#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace impactset::robots::internal {
namespace {

constexpr std::size_t kNone = std::string::npos;

// The next start tag <NAME (then a blank, '/' or '>') at or after `from`, comments skipped.
std::size_t FindTag(const std::string& t, std::string_view name, std::size_t from) {
  std::size_t i = from;
  while ((i = t.find('<', i)) != kNone) {
    if (t.compare(i, 4, "<!--") == 0) {
      const std::size_t e = t.find("-->", i + 4);
      if (e == kNone) return kNone;
      i = e + 3;
      continue;
    }
    const std::size_t after = i + 1 + name.size();
    if (t.compare(i + 1, name.size(), name) == 0 && after < t.size() &&
        std::string_view(" \t\r\n/>").find(t[after]) != std::string_view::npos) {
      return i;
    }
    ++i;
  }
  return kNone;
}

// One past the '>' closing the tag that starts at `start` (quoted values may hold '>').
std::size_t TagEnd(const std::string& t, std::size_t start) {
  char quote = 0;
  for (std::size_t i = start; i < t.size(); ++i) {
    const char c = t[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return kNone;
}

std::optional<std::string> Attribute(const std::string& tag, const std::string& name) {
  const std::regex re("\\s" + name + "\\s*=\\s*(\"([^\"]*)\"|'([^']*)')");
  std::smatch m;
  if (!std::regex_search(tag, m, re)) return std::nullopt;
  return m[2].matched ? m[2].str() : m[3].str();
}

bool SelfClosing(const std::string& t, std::size_t end) { return end >= 2 && t[end - 2] == '/'; }

std::optional<std::string> ReadText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// What lies between <mujoco ...> and </mujoco> (nullopt: no such root).
std::optional<std::string> RootChildren(const std::string& t) {
  const std::size_t i = FindTag(t, "mujoco", 0);
  if (i == kNone) return std::nullopt;
  const std::size_t end = TagEnd(t, i);
  if (end == kNone) return std::nullopt;
  if (SelfClosing(t, end)) return std::string();
  const std::size_t close = t.rfind("</mujoco>");
  if (close == kNone || close < end) return std::nullopt;
  return t.substr(end, close - end);
}

std::string Expand(const std::string& text,
                   const std::filesystem::path& folder,
                   const std::string& label,
                   int depth) {
  std::string out;
  std::size_t pos = 0, i = 0;
  while ((i = FindTag(text, "include", pos)) != kNone) {
    const std::size_t end = TagEnd(text, i);
    if (end == kNone) throw std::invalid_argument(label + ": an <include> tag is not closed");
    const std::string tag = text.substr(i, end - i);
    std::size_t after = end;
    if (!SelfClosing(text, end)) {
      const std::size_t close = text.find("</include>", end);
      if (close != kNone) after = close + std::string_view("</include>").size();
    }
    const auto file = Attribute(tag, "file");
    if (!file) throw std::invalid_argument(label + ": " + tag + ": no file attribute");
    const std::string where = label + ": <include file=\"" + *file + "\">";
    if (depth >= kMaxIncludeDepth) {
      throw std::invalid_argument(where + ": includes nested deeper than " +
                                  std::to_string(kMaxIncludeDepth) + " (an include cycle?)");
    }
    std::filesystem::path p(*file);
    if (p.is_relative()) p = folder / p;
    const auto content = ReadText(p);
    if (!content) {
      throw std::invalid_argument(where + ": cannot read " + p.string() +
                                  " (a relative file is resolved against the model's folder)");
    }
    const auto inner = RootChildren(*content);
    if (!inner) throw std::invalid_argument(where + ": " + p.string() + " has no <mujoco> root");
    out += text.substr(pos, i - pos);
    out += Expand(*inner, folder, label, depth + 1);
    pos = after;
  }
  out += text.substr(pos);
  return out;
}

}  // namespace

bool HasInclude(const std::string& text) { return FindTag(text, "include", 0) != kNone; }

std::string ExpandIncludes(const std::string& text,
                           const std::filesystem::path& folder,
                           const std::string& label) {
  return Expand(text, folder, label, 0);
}

bool IsUrdf(const std::string& text) {
  std::size_t i = 0;
  while ((i = text.find('<', i)) != kNone) {
    if (text.compare(i, 2, "<?") == 0 || text.compare(i, 2, "<!") == 0) {
      const std::size_t e = text.compare(i, 4, "<!--") == 0 ? text.find("-->", i) : TagEnd(text, i);
      if (e == kNone) return false;
      i = e;
      continue;
    }
    return FindTag(text, "robot", i) == i;
  }
  return false;
}

std::string AddFloor(const std::string& mjcf, const std::string& label) {
  static const std::string kFloor = std::string("<geom name=\"") + kFloorName +
                                    "\" type=\"plane\" pos=\"0 0 0\" size=\"0 0 1\" condim=\"3\" "
                                    "friction=\"1\" contype=\"1\" conaffinity=\"1\"/>";
  const std::size_t i = FindTag(mjcf, "worldbody", 0);
  const std::size_t end = i == kNone ? kNone : TagEnd(mjcf, i);
  if (end == kNone)
    throw std::invalid_argument(label + ": add_floor: the model has no <worldbody>");
  if (SelfClosing(mjcf, end)) {
    return mjcf.substr(0, i) + "<worldbody>" + kFloor + "</worldbody>" + mjcf.substr(end);
  }
  return mjcf.substr(0, end) + kFloor + mjcf.substr(end);
}

std::string AddFloatingBase(const std::string& urdf, const std::string& label) {
  std::vector<std::string> links;
  std::set<std::string> children;
  for (std::size_t i = 0; (i = FindTag(urdf, "link", i)) != kNone; ++i) {
    const std::size_t end = TagEnd(urdf, i);
    if (end == kNone) break;
    if (const auto name = Attribute(urdf.substr(i, end - i), "name")) links.push_back(*name);
  }
  for (std::size_t i = 0; (i = FindTag(urdf, "child", i)) != kNone; ++i) {
    const std::size_t end = TagEnd(urdf, i);
    if (end == kNone) break;
    if (const auto link = Attribute(urdf.substr(i, end - i), "link")) children.insert(*link);
  }
  std::string root;
  for (const std::string& l : links) {
    if (l == "world") {
      throw std::invalid_argument(label +
                                  ": floating_base: the URDF already has a link named 'world' "
                                  "(its base is fixed to it: make that joint type=\"floating\")");
    }
    if (root.empty() && !children.contains(l)) root = l;
  }
  const std::size_t close = urdf.rfind("</robot>");
  if (root.empty() || close == kNone) {
    throw std::invalid_argument(label + ": floating_base: no root link found in the URDF");
  }
  return urdf.substr(0, close) + "<link name=\"world\"/><joint name=\"" + kFloatingJointName +
         "\" type=\"floating\"><parent link=\"world\"/><child link=\"" + root + "\"/></joint>" +
         urdf.substr(close);
}

}  // namespace impactset::robots::internal
