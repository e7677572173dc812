// The AES S-box as a Boolean circuit on bit planes: no table, so nothing to leak through the cache.
//
// The circuit is Boyar and Peralta's 113-gate S-box ("A new combinational logic minimization technique with
// applications to cryptology", SEA 2010): a linear layer expands the 8 input bits to 22 signals, a shared
// non-linear middle computes the GF(2^8) inverse in tower-field form, and a linear layer folds the result
// back to 8 bits (with the affine constant 0x63 appearing as the complemented outputs). The inverse S-box
// reuses it: with A the affine matrix, S(x) = A(inv(x)) ^ 0x63, so S^-1(y) = A^-1(S(A^-1(y) ^ 0x05)) ^ 0x05.
#include "core/aes/portable_aes.h"

namespace pcrypt::aes::portable {
namespace {

using u64 = std::uint64_t;

}  // namespace

void sub_bytes(Planes& s) {
  // Gate names follow the paper: x0 is the most significant bit.
  const u64 x0 = s.q[7], x1 = s.q[6], x2 = s.q[5], x3 = s.q[4];
  const u64 x4 = s.q[3], x5 = s.q[2], x6 = s.q[1], x7 = s.q[0];

  // Top linear layer.
  const u64 y14 = x3 ^ x5;
  const u64 y13 = x0 ^ x6;
  const u64 y9 = x0 ^ x3;
  const u64 y8 = x0 ^ x5;
  const u64 t0 = x1 ^ x2;
  const u64 y1 = t0 ^ x7;
  const u64 y4 = y1 ^ x3;
  const u64 y12 = y13 ^ y14;
  const u64 y2 = y1 ^ x0;
  const u64 y5 = y1 ^ x6;
  const u64 y3 = y5 ^ y8;
  const u64 t1 = x4 ^ y12;
  const u64 y15 = t1 ^ x5;
  const u64 y20 = t1 ^ x1;
  const u64 y6 = y15 ^ x7;
  const u64 y10 = y15 ^ t0;
  const u64 y11 = y20 ^ y9;
  const u64 y7 = x7 ^ y11;
  const u64 y17 = y10 ^ y11;
  const u64 y19 = y10 ^ y8;
  const u64 y16 = t0 ^ y11;
  const u64 y21 = y13 ^ y16;
  const u64 y18 = x0 ^ y16;

  // Non-linear middle: inversion in GF(2^8) via GF(2^4).
  const u64 t2 = y12 & y15;
  const u64 t3 = y3 & y6;
  const u64 t4 = t3 ^ t2;
  const u64 t5 = y4 & x7;
  const u64 t6 = t5 ^ t2;
  const u64 t7 = y13 & y16;
  const u64 t8 = y5 & y1;
  const u64 t9 = t8 ^ t7;
  const u64 t10 = y2 & y7;
  const u64 t11 = t10 ^ t7;
  const u64 t12 = y9 & y11;
  const u64 t13 = y14 & y17;
  const u64 t14 = t13 ^ t12;
  const u64 t15 = y8 & y10;
  const u64 t16 = t15 ^ t12;
  const u64 t17 = t4 ^ t14;
  const u64 t18 = t6 ^ t16;
  const u64 t19 = t9 ^ t14;
  const u64 t20 = t11 ^ t16;
  const u64 t21 = t17 ^ y20;
  const u64 t22 = t18 ^ y19;
  const u64 t23 = t19 ^ y21;
  const u64 t24 = t20 ^ y18;

  const u64 t25 = t21 ^ t22;
  const u64 t26 = t21 & t23;
  const u64 t27 = t24 ^ t26;
  const u64 t28 = t25 & t27;
  const u64 t29 = t28 ^ t22;
  const u64 t30 = t23 ^ t24;
  const u64 t31 = t22 ^ t26;
  const u64 t32 = t31 & t30;
  const u64 t33 = t32 ^ t24;
  const u64 t34 = t23 ^ t33;
  const u64 t35 = t27 ^ t33;
  const u64 t36 = t24 & t35;
  const u64 t37 = t36 ^ t34;
  const u64 t38 = t27 ^ t36;
  const u64 t39 = t29 & t38;
  const u64 t40 = t25 ^ t39;

  const u64 t41 = t40 ^ t37;
  const u64 t42 = t29 ^ t33;
  const u64 t43 = t29 ^ t40;
  const u64 t44 = t33 ^ t37;
  const u64 t45 = t42 ^ t41;
  const u64 z0 = t44 & y15;
  const u64 z1 = t37 & y6;
  const u64 z2 = t33 & x7;
  const u64 z3 = t43 & y16;
  const u64 z4 = t40 & y1;
  const u64 z5 = t29 & y7;
  const u64 z6 = t42 & y11;
  const u64 z7 = t45 & y17;
  const u64 z8 = t41 & y10;
  const u64 z9 = t44 & y12;
  const u64 z10 = t37 & y3;
  const u64 z11 = t33 & y4;
  const u64 z12 = t43 & y13;
  const u64 z13 = t40 & y5;
  const u64 z14 = t29 & y2;
  const u64 z15 = t42 & y9;
  const u64 z16 = t45 & y14;
  const u64 z17 = t41 & y8;

  // Bottom linear layer (includes the affine map; the complements add the constant 0x63).
  const u64 t46 = z15 ^ z16;
  const u64 t47 = z10 ^ z11;
  const u64 t48 = z5 ^ z13;
  const u64 t49 = z9 ^ z10;
  const u64 t50 = z2 ^ z12;
  const u64 t51 = z2 ^ z5;
  const u64 t52 = z7 ^ z8;
  const u64 t53 = z0 ^ z3;
  const u64 t54 = z6 ^ z7;
  const u64 t55 = z16 ^ z17;
  const u64 t56 = z12 ^ t48;
  const u64 t57 = t50 ^ t53;
  const u64 t58 = z4 ^ t46;
  const u64 t59 = z3 ^ t54;
  const u64 t60 = t46 ^ t57;
  const u64 t61 = z14 ^ t57;
  const u64 t62 = t52 ^ t58;
  const u64 t63 = t49 ^ t58;
  const u64 t64 = z4 ^ t59;
  const u64 t65 = t61 ^ t62;
  const u64 t66 = z1 ^ t63;
  const u64 t67 = t64 ^ t65;

  const u64 s3 = t53 ^ t66;
  s.q[7] = t59 ^ t63;
  s.q[6] = ~(t64 ^ s3);
  s.q[5] = ~(t55 ^ t67);
  s.q[4] = s3;
  s.q[3] = t51 ^ t66;
  s.q[2] = t47 ^ t65;
  s.q[1] = ~(t56 ^ t62);
  s.q[0] = ~(t48 ^ t60);
}

namespace {

// A^-1, the inverse of the S-box's affine matrix: output bit i = in[i+2] ^ in[i+5] ^ in[i+7] (indices mod 8).
void inverse_affine_matrix(Planes& s) {
  const Planes in = s;
  for (int i = 0; i < 8; ++i) s.q[i] = in.q[(i + 2) % 8] ^ in.q[(i + 5) % 8] ^ in.q[(i + 7) % 8];
}

// XOR with the constant 0x05 = A^-1(0x63): complement planes 0 and 2.
void add_05(Planes& s) {
  s.q[0] = ~s.q[0];
  s.q[2] = ~s.q[2];
}

}  // namespace

void inv_sub_bytes(Planes& s) {
  inverse_affine_matrix(s);
  add_05(s);
  sub_bytes(s);
  inverse_affine_matrix(s);
  add_05(s);
}

}  // namespace pcrypt::aes::portable
