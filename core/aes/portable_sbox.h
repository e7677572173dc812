// The AES S-box as a Boolean circuit on bit planes: no table, so nothing to leak through the cache.
//
// The circuit is Boyar and Peralta's 113-gate S-box ("A new combinational logic minimization technique with
// applications to cryptology", SEA 2010): a linear layer expands the 8 input bits to 22 signals, a shared
// non-linear middle computes the GF(2^8) inverse in tower-field form, and a linear layer folds the result
// back to 8 bits (with the affine constant 0x63 appearing as the complemented outputs). The inverse S-box
// reuses it: with A the affine matrix, S(x) = A(inv(x)) ^ 0x63, so S^-1(y) = A^-1(S(A^-1(y) ^ 0x05)) ^ 0x05.
//
// W is any type with bitwise operators: uint64_t (four blocks) or a two-lane vector (eight blocks).
#pragma once

namespace pcrypt::aes::portable {

template <class W>
inline void sbox_circuit(W (&q)[8]) {
  // Gate names follow the paper: x0 is the most significant bit.
  const W x0 = q[7], x1 = q[6], x2 = q[5], x3 = q[4];
  const W x4 = q[3], x5 = q[2], x6 = q[1], x7 = q[0];

  // Top linear layer.
  const W y14 = x3 ^ x5;
  const W y13 = x0 ^ x6;
  const W y9 = x0 ^ x3;
  const W y8 = x0 ^ x5;
  const W t0 = x1 ^ x2;
  const W y1 = t0 ^ x7;
  const W y4 = y1 ^ x3;
  const W y12 = y13 ^ y14;
  const W y2 = y1 ^ x0;
  const W y5 = y1 ^ x6;
  const W y3 = y5 ^ y8;
  const W t1 = x4 ^ y12;
  const W y15 = t1 ^ x5;
  const W y20 = t1 ^ x1;
  const W y6 = y15 ^ x7;
  const W y10 = y15 ^ t0;
  const W y11 = y20 ^ y9;
  const W y7 = x7 ^ y11;
  const W y17 = y10 ^ y11;
  const W y19 = y10 ^ y8;
  const W y16 = t0 ^ y11;
  const W y21 = y13 ^ y16;
  const W y18 = x0 ^ y16;

  // Non-linear middle: inversion in GF(2^8) via GF(2^4).
  const W t2 = y12 & y15;
  const W t3 = y3 & y6;
  const W t4 = t3 ^ t2;
  const W t5 = y4 & x7;
  const W t6 = t5 ^ t2;
  const W t7 = y13 & y16;
  const W t8 = y5 & y1;
  const W t9 = t8 ^ t7;
  const W t10 = y2 & y7;
  const W t11 = t10 ^ t7;
  const W t12 = y9 & y11;
  const W t13 = y14 & y17;
  const W t14 = t13 ^ t12;
  const W t15 = y8 & y10;
  const W t16 = t15 ^ t12;
  const W t17 = t4 ^ t14;
  const W t18 = t6 ^ t16;
  const W t19 = t9 ^ t14;
  const W t20 = t11 ^ t16;
  const W t21 = t17 ^ y20;
  const W t22 = t18 ^ y19;
  const W t23 = t19 ^ y21;
  const W t24 = t20 ^ y18;

  const W t25 = t21 ^ t22;
  const W t26 = t21 & t23;
  const W t27 = t24 ^ t26;
  const W t28 = t25 & t27;
  const W t29 = t28 ^ t22;
  const W t30 = t23 ^ t24;
  const W t31 = t22 ^ t26;
  const W t32 = t31 & t30;
  const W t33 = t32 ^ t24;
  const W t34 = t23 ^ t33;
  const W t35 = t27 ^ t33;
  const W t36 = t24 & t35;
  const W t37 = t36 ^ t34;
  const W t38 = t27 ^ t36;
  const W t39 = t29 & t38;
  const W t40 = t25 ^ t39;

  const W t41 = t40 ^ t37;
  const W t42 = t29 ^ t33;
  const W t43 = t29 ^ t40;
  const W t44 = t33 ^ t37;
  const W t45 = t42 ^ t41;
  const W z0 = t44 & y15;
  const W z1 = t37 & y6;
  const W z2 = t33 & x7;
  const W z3 = t43 & y16;
  const W z4 = t40 & y1;
  const W z5 = t29 & y7;
  const W z6 = t42 & y11;
  const W z7 = t45 & y17;
  const W z8 = t41 & y10;
  const W z9 = t44 & y12;
  const W z10 = t37 & y3;
  const W z11 = t33 & y4;
  const W z12 = t43 & y13;
  const W z13 = t40 & y5;
  const W z14 = t29 & y2;
  const W z15 = t42 & y9;
  const W z16 = t45 & y14;
  const W z17 = t41 & y8;

  // Bottom linear layer (includes the affine map; the complements add the constant 0x63).
  const W t46 = z15 ^ z16;
  const W t47 = z10 ^ z11;
  const W t48 = z5 ^ z13;
  const W t49 = z9 ^ z10;
  const W t50 = z2 ^ z12;
  const W t51 = z2 ^ z5;
  const W t52 = z7 ^ z8;
  const W t53 = z0 ^ z3;
  const W t54 = z6 ^ z7;
  const W t55 = z16 ^ z17;
  const W t56 = z12 ^ t48;
  const W t57 = t50 ^ t53;
  const W t58 = z4 ^ t46;
  const W t59 = z3 ^ t54;
  const W t60 = t46 ^ t57;
  const W t61 = z14 ^ t57;
  const W t62 = t52 ^ t58;
  const W t63 = t49 ^ t58;
  const W t64 = z4 ^ t59;
  const W t65 = t61 ^ t62;
  const W t66 = z1 ^ t63;
  const W t67 = t64 ^ t65;

  const W s3 = t53 ^ t66;
  q[7] = t59 ^ t63;
  q[6] = ~(t64 ^ s3);
  q[5] = ~(t55 ^ t67);
  q[4] = s3;
  q[3] = t51 ^ t66;
  q[2] = t47 ^ t65;
  q[1] = ~(t56 ^ t62);
  q[0] = ~(t48 ^ t60);
}

// A^-1, the inverse of the S-box's affine matrix: output bit i = in[i+2] ^ in[i+5] ^ in[i+7] (indices mod 8).
template <class W>
inline void inverse_affine_matrix(W (&q)[8]) {
  W in[8];
  for (int i = 0; i < 8; ++i) in[i] = q[i];
  for (int i = 0; i < 8; ++i) q[i] = in[(i + 2) % 8] ^ in[(i + 5) % 8] ^ in[(i + 7) % 8];
}

template <class W>
inline void inv_sbox_circuit(W (&q)[8]) {
  // The constant 0x05 = A^-1(0x63) is added by complementing planes 0 and 2.
  inverse_affine_matrix(q);
  q[0] = ~q[0];
  q[2] = ~q[2];
  sbox_circuit(q);
  inverse_affine_matrix(q);
  q[0] = ~q[0];
  q[2] = ~q[2];
}

}  // namespace pcrypt::aes::portable
