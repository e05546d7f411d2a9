#include <impactset/systems/scene.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <nlohmann/json.hpp>

namespace impactset::systems {

namespace {

using nlohmann::json;

// A contact is colliding iff Jn v < -kApproaching: Algorithm 1's termination threshold
// (docs/examples.md §1.5), so a scene that passes has at least one step to take.
constexpr double kApproaching = 1e-8;
// A rigid-rotation recipe is realised if the joints reproduce every shaped frame's twist to
// roundoff relative to the twist's size.
constexpr double kRecipeTolerance = 1e-9;
// M(q) counts as singular below this fraction of its largest eigenvalue (a joint that moves no
// mass or inertia gives an exactly zero eigenvalue up to roundoff).
constexpr double kSingularMass = 1e-12;

// Paths are JSON pointers; "" is the document root and is reported as "/".
[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument((path.empty() ? "/" : path) + ": " + what);
}

// Doubles in messages: 6 significant digits, so 1e-06 does not print as 0.000001.
std::string Num(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

std::string Escape(const std::string& key) {  // JSON pointer escaping (RFC 6901)
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string At(const std::string& path, const std::string& key) { return path + "/" + Escape(key); }
std::string At(const std::string& path, size_t index) { return path + "/" + std::to_string(index); }

// SAX pass that knows where it is: names the path of a syntax error or of a number that
// overflows a double (nlohmann rejects those), and rejects duplicate keys, which the DOM parser
// would silently collapse to the last one.
class PathTracker : public nlohmann::json_sax<json> {
 public:
  std::string error_path, error;

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    levels_.push_back({false, 0, "", {}});
    return true;
  }
  bool key(string_t& k) override {
    Level& l = levels_.back();
    l.key = k;
    if (!l.keys.insert(k).second) {
      error_path = Path();
      error = "duplicate key";
      return false;
    }
    return true;
  }
  bool end_object() override {
    levels_.pop_back();
    return Value();
  }
  bool start_array(std::size_t) override {
    levels_.push_back({true, 0, "", {}});
    return true;
  }
  bool end_array() override {
    levels_.pop_back();
    return Value();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error_path = Path();
    error = std::string("malformed JSON: ") + e.what();
    return false;
  }

 private:
  struct Level {
    bool array;
    size_t index;
    std::string key;
    std::set<std::string> keys;
  };
  bool Value() {
    if (!levels_.empty() && levels_.back().array) ++levels_.back().index;
    return true;
  }
  std::string Path() const {
    std::string p;
    for (const Level& l : levels_) p += l.array ? At("", l.index) : At("", l.key);
    return p;
  }
  std::vector<Level> levels_;
};

json Parse(const std::string& text) {
  PathTracker tracker;
  if (!json::sax_parse(text, &tracker)) Fail(tracker.error_path, tracker.error);
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // not expected after the SAX pass
    Fail("", std::string("malformed JSON: ") + e.what());
  }
}

void CheckObject(const json& j, const std::string& path, const std::vector<std::string>& keys) {
  if (!j.is_object()) Fail(path, std::string("expected an object, found ") + j.type_name());
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const std::string& k : keys) known = known || k == key;
    if (!known) {
      std::string allowed;
      for (const std::string& k : keys) allowed += (allowed.empty() ? "" : ", ") + k;
      Fail(At(path, key), "unknown key (allowed here: " + allowed + ")");
    }
  }
}

const json* Find(const json& obj, const std::string& key) {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const json& Require(const json& obj, const std::string& path, const std::string& key) {
  const json* j = Find(obj, key);
  if (!j) Fail(At(path, key), "missing required field");
  return *j;
}

double Number(const json& j, const std::string& path) {
  if (!j.is_number()) Fail(path, std::string("expected a number, found ") + j.type_name());
  const double x = j.get<double>();
  if (!std::isfinite(x)) Fail(path, "must be finite");
  return x;
}

double NonNegative(const json& j, const std::string& path) {
  const double x = Number(j, path);
  if (x < 0) Fail(path, "must be >= 0, found " + Num(x));
  return x;
}

double Positive(const json& j, const std::string& path) {
  const double x = Number(j, path);
  if (!(x > 0)) Fail(path, "must be > 0, found " + Num(x));
  return x;
}

long long PositiveInteger(const json& j, const std::string& path) {
  if (!j.is_number_integer() || j.get<long long>() < 1) Fail(path, "must be an integer >= 1");
  return j.get<long long>();
}

std::string String(const json& j, const std::string& path) {
  if (!j.is_string()) Fail(path, std::string("expected a string, found ") + j.type_name());
  return j.get<std::string>();
}

bool Bool(const json& j, const std::string& path) {
  if (!j.is_boolean()) Fail(path, std::string("expected true or false, found ") + j.type_name());
  return j.get<bool>();
}

const json& Array(const json& j, const std::string& path) {
  if (!j.is_array()) Fail(path, std::string("expected a list, found ") + j.type_name());
  return j;
}

VectorXd Numbers(const json& j, const std::string& path, Eigen::Index size, const char* what) {
  Array(j, path);
  if (static_cast<Eigen::Index>(j.size()) != size) {
    Fail(path, "expected " + std::to_string(size) + " numbers (" + what + "), found " +
                   std::to_string(j.size()));
  }
  VectorXd v(size);
  for (Eigen::Index i = 0; i < size; ++i) v(i) = Number(j[i], At(path, i));
  return v;
}

Pose2 PoseOf(const json& j, const std::string& path) {
  const VectorXd p = Numbers(j, path, 3, "x, y, theta");
  return Pose2{Eigen::Vector2d(p(0), p(1)), p(2)};
}

JointType ParseJoint(const json& j, const std::string& path) {
  const std::string s = String(j, path);
  if (s == "fixed") return JointType::kFixed;
  if (s == "prismatic_x") return JointType::kPrismaticX;
  if (s == "prismatic_y") return JointType::kPrismaticY;
  if (s == "revolute") return JointType::kRevolute;
  if (s == "floating") return JointType::kFloating;
  Fail(path, "unknown joint '" + s +
                 "' (expected fixed, prismatic_x, prismatic_y, revolute or floating)");
}

void ParseFrame(const json& j, const std::string& path, PlanarTree* tree) {
  CheckObject(j, path, {"name", "parent", "joint", "transform"});
  const std::string name = String(Require(j, path, "name"), At(path, "name"));
  if (name.empty() || name == "world") Fail(At(path, "name"), "must be non-empty and not 'world'");
  if (tree->FindFrame(name)) Fail(At(path, "name"), "frame '" + name + "' is already defined");
  int parent = PlanarTree::kWorld;
  if (const json* p = Find(j, "parent")) {
    const std::string pname = String(*p, At(path, "parent"));
    const std::optional<int> index = tree->FindFrame(pname);
    if (!index) {
      Fail(At(path, "parent"),
           "unknown frame '" + pname + "' (a parent must be listed before its children)");
    }
    parent = *index;
  }
  const JointType joint = ParseJoint(Require(j, path, "joint"), At(path, "joint"));
  Pose2 transform;
  if (const json* t = Find(j, "transform")) transform = PoseOf(*t, At(path, "transform"));
  tree->AddFrame(name, parent, joint, transform);
}

void ParseShape(const json& j, const std::string& path, PlanarTree* tree) {
  if (!j.is_object()) Fail(path, std::string("expected an object, found ") + j.type_name());
  const std::string type = String(Require(j, path, "type"), At(path, "type"));
  std::vector<std::string> keys = {"name", "type", "frame", "pose", "mass", "collision"};
  if (type == "point") {
    keys.push_back("inertia");
  } else if (type == "rod") {
    keys.push_back("length");
  } else if (type == "disc") {
    keys.push_back("radius");
  } else if (type == "box") {
    keys.insert(keys.end(), {"width", "height"});
  } else if (type == "wall") {
    keys = {"name", "type", "normal", "offset"};  // fixed to the world, always colliding
  } else {
    Fail(At(path, "type"),
         "unknown shape type '" + type + "' (expected point, rod, disc, box or wall)");
  }
  CheckObject(j, path, keys);
  const std::string name = String(Require(j, path, "name"), At(path, "name"));
  if (name.empty()) Fail(At(path, "name"), "must be non-empty");
  if (tree->FindShape(name)) Fail(At(path, "name"), "shape '" + name + "' is already defined");
  if (type == "wall") {
    const VectorXd n = Numbers(Require(j, path, "normal"), At(path, "normal"), 2, "n_x, n_y");
    if (!(n.norm() > 0)) Fail(At(path, "normal"), "must be non-zero");
    double offset = 0;
    if (const json* o = Find(j, "offset")) offset = Number(*o, At(path, "offset"));
    tree->AddWall(name, Eigen::Vector2d(n(0), n(1)), offset);
    return;
  }
  const std::string fname = String(Require(j, path, "frame"), At(path, "frame"));
  const std::optional<int> frame = tree->FindFrame(fname);
  if (!frame) Fail(At(path, "frame"), "unknown frame '" + fname + "'");
  Pose2 pose;
  if (const json* p = Find(j, "pose")) pose = PoseOf(*p, At(path, "pose"));
  bool collision = true;
  if (const json* c = Find(j, "collision")) collision = Bool(*c, At(path, "collision"));
  double mass = 0;
  if (const json* m = Find(j, "mass")) mass = NonNegative(*m, At(path, "mass"));
  if (type == "point") {
    double inertia = 0;
    if (const json* i = Find(j, "inertia")) inertia = NonNegative(*i, At(path, "inertia"));
    tree->AddPointMass(name, *frame, pose, mass, inertia, collision);
  } else if (type == "rod") {
    const double length = Positive(Require(j, path, "length"), At(path, "length"));
    tree->AddRod(name, *frame, pose, length, mass, collision);
  } else if (type == "disc") {
    const double radius = Positive(Require(j, path, "radius"), At(path, "radius"));
    tree->AddDisc(name, *frame, pose, radius, mass, collision);
  } else {
    const double width = Positive(Require(j, path, "width"), At(path, "width"));
    const double height = Positive(Require(j, path, "height"), At(path, "height"));
    tree->AddBox(name, *frame, pose, width, height, mass, collision);
  }
}

ContactOptions ParseContactOptions(const json& doc) {
  ContactOptions options;
  const json* c = Find(doc, "contacts");
  if (!c) return options;
  CheckObject(*c, "/contacts", {"gap_tolerance", "tangent_convention"});
  if (const json* g = Find(*c, "gap_tolerance")) {
    options.gap_tolerance = NonNegative(*g, "/contacts/gap_tolerance");
  }
  if (const json* t = Find(*c, "tangent_convention")) {
    const std::string s = String(*t, "/contacts/tangent_convention");
    if (s == "orthogonal") {
      options.tangent = TangentConvention::kOrthogonal;
    } else if (s == "authors") {
      options.tangent = TangentConvention::kAuthors;
    } else {
      Fail("/contacts/tangent_convention",
           "unknown convention '" + s + "' (expected orthogonal or authors)");
    }
  }
  return options;
}

std::string PairName(const PlanarTree& tree, const Contact& c) {
  std::string s =
      "'" + tree.shapes()[c.shape_a].name + "' and '" + tree.shapes()[c.shape_b].name + "'";
  if (c.vertex >= 0) s += " (vertex " + std::to_string(c.vertex) + ")";
  return s;
}

// A shape name inside a pair list ["a", "b"]; returns its index.
int ShapeRef(const PlanarTree& tree, const json& j, const std::string& path) {
  const std::string name = String(j, path);
  const std::optional<int> s = tree.FindShape(name);
  if (!s) Fail(path, "unknown shape '" + name + "'");
  return *s;
}

std::pair<int, int> ShapePair(const PlanarTree& tree, const json& j, const std::string& path) {
  Array(j, path);
  if (j.size() != 2) Fail(path, "expected two shape names");
  const int a = ShapeRef(tree, j[0], At(path, 0));
  const int b = ShapeRef(tree, j[1], At(path, 1));
  if (a == b) Fail(path, "names the same shape twice");
  return {a, b};
}

bool Joins(const Contact& c, std::pair<int, int> pair) {
  return (c.shape_a == pair.first && c.shape_b == pair.second) ||
         (c.shape_a == pair.second && c.shape_b == pair.first);
}

// "rigid_rotation": the v that moves every frame carrying a shape as one rigid body turning at
// `rate` about a world point (RAMone, compass gait, Zeno block: docs/examples.md §3.3, §3.4, §3.6).
VectorXd RigidRotation(const json& j,
                       const std::string& path,
                       const PlanarTree& tree,
                       const VectorXd& q,
                       const std::vector<Contact>& active) {
  CheckObject(j, path, {"rate", "about"});
  const double rate = Number(Require(j, path, "rate"), At(path, "rate"));
  const json& about = Require(j, path, "about");
  const std::string apath = At(path, "about");
  Eigen::Vector2d point;
  if (about.is_array()) {
    const VectorXd p = Numbers(about, apath, 2, "x, y");
    point = p;
  } else if (about.is_object()) {
    CheckObject(about, apath, {"contact"});
    const std::string cpath = At(apath, "contact");
    const std::pair<int, int> pair = ShapePair(tree, Require(about, apath, "contact"), cpath);
    int count = 0;
    for (const Contact& c : active) {
      if (!Joins(c, pair)) continue;
      point = (c.point_a + c.point_b) / 2;
      ++count;
    }
    if (count != 1) {
      Fail(cpath,
           std::to_string(count) + " active contacts between these shapes, need exactly one");
    }
  } else {
    Fail(apath, std::string("expected [x, y] or {\"contact\": [shape, shape]}, found ") +
                    about.type_name());
  }
  const int n = tree.num_velocities();
  std::vector<int> shaped;
  for (size_t f = 0; f < tree.frames().size(); ++f) {
    for (const Shape& s : tree.shapes()) {
      if (s.frame == static_cast<int>(f)) {
        shaped.push_back(static_cast<int>(f));
        break;
      }
    }
  }
  MatrixXd A(3 * shaped.size(), n);
  VectorXd b(3 * shaped.size());
  for (size_t i = 0; i < shaped.size(); ++i) {
    const Eigen::Vector2d o = tree.FramePose(q, shaped[i]).translation;
    A.middleRows(3 * i, 3) = tree.PointJacobian(q, shaped[i], o);
    b.segment<3>(3 * i) << -rate * (o - point).y(), rate * (o - point).x(), rate;
  }
  const Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(A);
  if (cod.rank() < n) {
    Fail(path, "does not determine v: some joint moves no shape (rank " +
                   std::to_string(cod.rank()) + " < n = " + std::to_string(n) + ")");
  }
  const VectorXd v = cod.solve(b);
  const double residual = (A * v - b).norm();
  if (!(residual <= kRecipeTolerance * (1 + b.norm()))) {
    Fail(path,
         "the joints cannot move every shape as one rigid body (residual " + Num(residual) + ")");
  }
  return v;
}

std::string ParseDescription(const json& doc) {
  std::string description = "scene";
  if (const json* d = Find(doc, "description")) description = String(*d, "/description");
  if (const json* notes = Find(doc, "notes")) {
    Array(*notes, "/notes");
    for (size_t i = 0; i < notes->size(); ++i) String((*notes)[i], At("/notes", i));
  }
  return description;
}

PlanarTree ParseTree(const json& doc) {
  PlanarTree tree;
  const json& frames = Array(Require(doc, "", "frames"), "/frames");
  for (size_t i = 0; i < frames.size(); ++i) ParseFrame(frames[i], At("/frames", i), &tree);
  if (tree.num_positions() == 0) Fail("/frames", "no joint coordinates: nothing can move");
  const json& shapes = Array(Require(doc, "", "shapes"), "/shapes");
  for (size_t i = 0; i < shapes.size(); ++i) ParseShape(shapes[i], At("/shapes", i), &tree);
  return tree;
}

// Geometry at q: finite, no penetration beyond the tolerance, at least one active contact.
ContactJacobians CheckedContacts(const PlanarTree& tree,
                                 const VectorXd& q,
                                 const ContactOptions& options) {
  const std::vector<Contact> candidates = tree.ContactCandidates(q, options.tangent);
  for (const Contact& c : candidates) {
    if (!std::isfinite(c.phi) || !c.jn.allFinite() || !c.jf.allFinite()) {
      Fail("/q", "contact geometry is not finite at this configuration");
    }
    if (c.phi < -options.gap_tolerance) {
      Fail("/q", "shapes " + PairName(tree, c) + " penetrate: phi = " + Num(c.phi) +
                     " < -gap_tolerance = " + Num(-options.gap_tolerance));
    }
  }
  ContactJacobians active = tree.ActiveContacts(q, options);
  if (active.contacts.empty()) {
    Fail("/q", "no contact is active (phi <= gap_tolerance = " + Num(options.gap_tolerance) +
                   " nowhere)");
  }
  return active;
}

MatrixXd CheckedMassMatrix(const PlanarTree& tree, const VectorXd& q) {
  MatrixXd M = tree.MassMatrix(q);
  if (!M.allFinite()) Fail("/q", "M(q) is not finite at this configuration");
  const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(M, Eigen::EigenvaluesOnly);
  if (!(eig.eigenvalues()(0) > kSingularMass * eig.eigenvalues()(M.rows() - 1))) {
    Fail("/shapes", "M(q) is not positive definite (smallest eigenvalue " +
                        Num(eig.eigenvalues()(0)) + "): some joint moves no mass or inertia");
  }
  return M;
}

// /v_minus: numbers or a rigid-rotation recipe; some active contact must approach.
VectorXd ParseVMinus(const json& doc,
                     const PlanarTree& tree,
                     const VectorXd& q,
                     const ContactJacobians& active) {
  const json& vj = Require(doc, "", "v_minus");
  VectorXd v;
  if (vj.is_object()) {
    CheckObject(vj, "/v_minus", {"rigid_rotation"});
    v = RigidRotation(Require(vj, "/v_minus", "rigid_rotation"), "/v_minus/rigid_rotation", tree, q,
                      active.contacts);
  } else {
    v = Numbers(vj, "/v_minus", tree.num_positions(), "one per joint velocity");
  }
  const VectorXd jnv = active.Jn * v;
  if (!jnv.allFinite()) Fail("/v_minus", "Jn v- is not finite");
  if (!(jnv.minCoeff() < -kApproaching)) {
    Fail("/v_minus", "no active contact is approaching: min Jn v- = " + Num(jnv.minCoeff()) +
                         " >= -1e-8 (nothing to resolve)");
  }
  return v;
}

// /friction/overrides: mu of the active contacts between the listed shape pairs.
void ApplyFrictionOverrides(const json& fr,
                            const PlanarTree& tree,
                            const ContactJacobians& active,
                            VectorXd* mu) {
  const json* o = Find(fr, "overrides");
  if (!o) return;
  Array(*o, "/friction/overrides");
  for (size_t i = 0; i < o->size(); ++i) {
    const std::string p = At("/friction/overrides", i);
    CheckObject((*o)[i], p, {"shapes", "mu"});
    const std::pair<int, int> pair =
        ShapePair(tree, Require((*o)[i], p, "shapes"), At(p, "shapes"));
    const double value = NonNegative(Require((*o)[i], p, "mu"), At(p, "mu"));
    bool used = false;
    for (Eigen::Index c = 0; c < mu->size(); ++c) {
      if (!Joins(active.contacts[c], pair)) continue;
      (*mu)(c) = value;
      used = true;
    }
    if (!used) Fail(At(p, "shapes"), "no active contact between these shapes");
  }
}

struct Friction {
  VectorXd mu;  // per active contact
  int k = 2;    // directions per contact: 2 (+t, -t) or 0
};

Friction ParseFriction(const json& doc, const PlanarTree& tree, const ContactJacobians& active) {
  const json& fr = Require(doc, "", "friction");
  CheckObject(fr, "/friction", {"mu", "k", "overrides"});
  Friction f;
  const auto m = static_cast<Eigen::Index>(active.contacts.size());
  f.mu = VectorXd::Constant(m, NonNegative(Require(fr, "/friction", "mu"), "/friction/mu"));
  ApplyFrictionOverrides(fr, tree, active, &f.mu);
  if (const json* kj = Find(fr, "k")) {
    if (!kj->is_number_integer() || (kj->get<long long>() != 0 && kj->get<long long>() != 2)) {
      Fail("/friction/k", "must be 2 (planar basis +t, -t) or 0 (no friction basis)");
    }
    f.k = kj->get<int>();
  }
  if (f.k == 0 && f.mu.maxCoeff() > 0) {
    Fail("/friction/k", "k = 0 (no friction basis) needs mu = 0 at every contact");
  }
  return f;
}

ProblemSettings ParseSampler(const json& doc) {
  ProblemSettings s;
  if (const json* sj = Find(doc, "sampler")) {
    CheckObject(*sj, "/sampler", {"h", "N", "samples"});
    if (const json* h = Find(*sj, "h")) s.step = Positive(*h, "/sampler/h");
    if (const json* N = Find(*sj, "N")) {
      const long long steps = PositiveInteger(*N, "/sampler/N");
      if (steps > 1000000000) Fail("/sampler/N", "must be <= 1e9");
      s.max_steps = static_cast<int>(steps);
    }
    if (const json* c = Find(*sj, "samples")) s.samples = PositiveInteger(*c, "/sampler/samples");
  }
  return s;
}

}  // namespace

LoadedScene ParseSceneJson(const std::string& text) {
  const json doc = Parse(text);
  CheckObject(doc, "",
              {"description", "notes", "frames", "shapes", "q", "v_minus", "friction", "contacts",
               "sampler"});
  const std::string description = ParseDescription(doc);
  PlanarTree tree = ParseTree(doc);
  const ContactOptions options = ParseContactOptions(doc);
  const int n = tree.num_positions();
  const VectorXd q = Numbers(Require(doc, "", "q"), "/q", n, "one per joint coordinate");
  const ContactJacobians active = CheckedContacts(tree, q, options);
  const MatrixXd M = CheckedMassMatrix(tree, q);
  const VectorXd v = ParseVMinus(doc, tree, q, active);
  const Friction friction = ParseFriction(doc, tree, active);
  const ProblemSettings s = ParseSampler(doc);

  auto problem = [&]() {
    try {
      if (friction.k == 2) {
        return impact::ImpactProblem::Planar(M, active.Jn, active.Jf, friction.mu, v);
      }
      return impact::ImpactProblem(M, active.Jn, MatrixXd(0, n), friction.mu, v, 0);
    } catch (const std::invalid_argument& e) {  // not expected after the checks above
      Fail("", e.what());
    }
  };
  return LoadedScene{{problem(), s, description}, std::move(tree), q, options, active.contacts};
}

LoadedScene LoadSceneJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open file");
  std::ostringstream os;
  os << in.rdbuf();
  try {
    return ParseSceneJson(os.str());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ":" + e.what());  // "file.json:/q: ..."
  }
}

}  // namespace impactset::systems
