#pragma once
// Two-contact geometry of the Jia-Mason-Erdmann impulse plane (JME 2013 §5-§6, Appendix A): the
// energy ellipse that bounds every impulse curve (Cor. 8, eqs. 41-42, in the general form
// 1/2 I^T W I + xdot-^T I = 0) and the compression lines l_i = {I : xdot_i(I) = 0} that split the
// impulse region into the phases of Fig. 6.
#include <Eigen/Dense>

namespace impactset::laws {

/// The ellipse 1/2 I^T W I + xdot-^T I = 0 of a two-contact collision (W = Jn M^-1 Jn^T, SPD).
/// With c = -W^-1 xdot- it reads (I - c)^T W (I - c) = c^T W c: both contacts at rest at c.
struct JmeEnergyEllipse {
  Eigen::Vector2d centre;  ///< c, where xdot(I) = xdot- + W I = 0 (both compression lines meet)
  double semi_minor = 0;   ///< along the eigenvector of W's larger eigenvalue
  double semi_major = 0;
  /// Angle of the semi-minor axis from the I_1 axis, in (-pi/2, pi/2] (eq. 43 for the ball on
  /// a ball on a table: -1/2 arctan(2 / m2)).
  double minor_axis_angle = 0;
  /// Points where I_2 is smallest / largest (horizontal tangents) and where I_1 is smallest /
  /// largest (vertical tangents).
  Eigen::Vector2d horizontal_low, horizontal_high, vertical_low, vertical_high;
  /// 1/2 I^T W I + xdot-^T I: negative inside, 0 on the ellipse (eq. 41's left side).
  double Level(const Eigen::Vector2d& impulse) const;
  Eigen::Matrix2d W;
  Eigen::Vector2d xdot_minus;
};

/// @throws std::invalid_argument if W is not symmetric positive definite or xdot- is 0.
JmeEnergyEllipse TwoContactEnergyEllipse(const Eigen::Matrix2d& W,
                                         const Eigen::Vector2d& xdot_minus);

/// Compression line l_i = {I : a . I = b}, a = row i of W, b = -xdot-_i: contact i's normal
/// velocity is 0 on it, negative (compressing) below it in the direction of a.
struct JmeCompressionLine {
  Eigen::Vector2d a;
  double b = 0;
  /// dI_2/dI_1 along the line; infinite when a_2 = 0.
  double Slope() const;
  /// The line's crossing of the I_1 axis (I_2 = 0); infinite when a_1 = 0.
  double AxisIntercept() const;
};

/// @throws std::invalid_argument if contact is not 0 or 1.
JmeCompressionLine CompressionLine(const Eigen::Matrix2d& W,
                                   const Eigen::Vector2d& xdot_minus,
                                   int contact);

}  // namespace impactset::laws
