#include "k.h"
#include <stdio.h>

int main(void) {
  const float x[6] = {1.5f, -4.0f, 0.25f, -1.0f, 2.0f, 3.0f};
  const float y[6] = {1.0f, 1.0f, 1.0f, 0.5f, 0.5f, -10.0f};
  float out[2];
  example(x, y, out);
  int64_t site, value, size;
  if (stax_rt_take_error(&site, &value, &size) != 0)
    return 1;
  printf("%g %g\n", out[0], out[1]);
  return 0;
}
