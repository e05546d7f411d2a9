#include <impactset/laws/jia_mason_erdmann_geometry.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace impactset::laws {
namespace {

void Require(bool ok, const char* field, const std::string& value, const char* rule) {
  if (ok) return;
  std::ostringstream s;
  s << field << " = " << value << ": " << rule;
  throw std::invalid_argument(s.str());
}

std::string Str(const Eigen::MatrixXd& m) {
  std::ostringstream s;
  s << m.format(Eigen::IOFormat(Eigen::FullPrecision, 0, ", ", "; ", "", "", "[", "]"));
  return s.str();
}

}  // namespace

double JmeEnergyEllipse::Level(const Eigen::Vector2d& impulse) const {
  return 0.5 * impulse.dot(W * impulse) + xdot_minus.dot(impulse);
}

JmeEnergyEllipse TwoContactEnergyEllipse(const Eigen::Matrix2d& W,
                                         const Eigen::Vector2d& xdot_minus) {
  Require(
      W.allFinite() && (W - W.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * W.cwiseAbs().maxCoeff(),
      "W", Str(W), "must be finite and symmetric");
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(W);
  Require(eig.eigenvalues()(0) > 0, "W", Str(W), "must be positive definite");
  Require(xdot_minus.allFinite() && xdot_minus.norm() > 0, "xdot_minus", Str(xdot_minus),
          "must be finite and non-zero");
  JmeEnergyEllipse e;
  e.W = W;
  e.xdot_minus = xdot_minus;
  const Eigen::Matrix2d Winv = W.inverse();
  e.centre = -Winv * xdot_minus;
  const double r2 = e.centre.dot(W * e.centre);  // = -xdot-^T c > 0
  // (I - c)^T W (I - c) = r2: semi-axis sqrt(r2 / lambda) along each eigenvector.
  e.semi_minor = std::sqrt(r2 / eig.eigenvalues()(1));
  e.semi_major = std::sqrt(r2 / eig.eigenvalues()(0));
  const Eigen::Vector2d minor = eig.eigenvectors().col(1);
  double angle = std::atan2(minor(1), minor(0));
  if (angle > M_PI / 2) angle -= M_PI;
  if (angle <= -M_PI / 2) angle += M_PI;
  e.minor_axis_angle = angle;
  // Extremes of I_j: W (I - c) parallel to e_j, so I = c +- sqrt(r2 / Winv_jj) Winv e_j.
  for (int j = 0; j < 2; ++j) {
    const Eigen::Vector2d d = std::sqrt(r2 / Winv(j, j)) * Winv.col(j);
    Eigen::Vector2d& low = j == 1 ? e.horizontal_low : e.vertical_low;
    Eigen::Vector2d& high = j == 1 ? e.horizontal_high : e.vertical_high;
    low = e.centre - d;
    high = e.centre + d;
  }
  return e;
}

double JmeCompressionLine::Slope() const {
  return a(1) == 0 ? std::numeric_limits<double>::infinity() : -a(0) / a(1);
}

double JmeCompressionLine::AxisIntercept() const {
  return a(0) == 0 ? std::numeric_limits<double>::infinity() : b / a(0);
}

JmeCompressionLine CompressionLine(const Eigen::Matrix2d& W,
                                   const Eigen::Vector2d& xdot_minus,
                                   int contact) {
  Require(contact == 0 || contact == 1, "contact", std::to_string(contact), "must be 0 or 1");
  return JmeCompressionLine{W.row(contact).transpose(), -xdot_minus(contact)};
}

}  // namespace impactset::laws
