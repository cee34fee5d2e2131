/*
 * gelu.h — the one GeLU of the project, in the tanh form GPT-2 and Megatron
 * use, for the cpu device, the CUDA kernels and the labs' references alike:
 *
 *     gelu(x)  = 0.5 x (1 + tanh(c (x + a x^3))),   c = sqrt(2/pi), a = 0.044715
 *     gelu'(x) = 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 a x^2),   t = tanh(c (x + a x^3))
 *
 * As macros over a floating type T and its tanh (tanh, tanhf; CUDA's
 * overloaded tanh), so float code computes in float, as a GPU kernel does.
 */
#ifndef RT_GELU_H
#define RT_GELU_H

#define GELU_C 0.7978845608028654   /* sqrt(2/pi) */
#define GELU_A 0.044715

#define GELU_T(T, TANH, x) TANH((T)GELU_C * ((x) + (T)GELU_A * (x) * (x) * (x)))
#define GELU(T, TANH, x) ((T)0.5 * (x) * ((T)1 + GELU_T(T, TANH, x)))
#define GELU_GRAD(T, TANH, x)                                                              \
    ((T)0.5 * ((T)1 + GELU_T(T, TANH, x)) +                                                \
     (T)0.5 * (x) * ((T)1 - GELU_T(T, TANH, x) * GELU_T(T, TANH, x)) * (T)GELU_C *         \
         ((T)1 + (T)3 * (T)GELU_A * (x) * (x)))

#endif
