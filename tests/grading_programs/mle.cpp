// Touches 1 GiB, far past any pack problem's memory limit: MLE.
#include <cstdio>
#include <vector>
int main() {
    std::vector<char> block(1ul << 30);
    for (size_t i = 0; i < block.size(); i += 4096) block[i] = 1;
    printf("%d\n", block[12345]);
}
