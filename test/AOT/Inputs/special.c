#include "k.h"
#include <stdio.h>

int main(void) {
  const double x[3] = {0.5, 3.25, -2.5};
  const float p[3] = {0.5f, 0.975f, 0.025f};
  double lg[3];
  float nd[3];
  int e[3];
  special(x, p, lg, nd, e);
  printf("%.17g %.17g %.17g\n", lg[0], lg[1], lg[2]);
  printf("%.9g %.9g %.9g\n", nd[0], nd[1], nd[2]);
  printf("%d %d %d\n", e[0], e[1], e[2]);
  return 0;
}
