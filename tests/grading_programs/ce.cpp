#include <bits/stdc++.h>
int main() {
    std::vector<int> v = {1, 2, 3}
    std::cout << v.size() << std::endl;
}
