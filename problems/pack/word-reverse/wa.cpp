// Wrong: prints every line's words in their original order.
#include <iostream>
#include <string>
int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    std::getline(std::cin, line);
    int m = std::stoi(line);
    for (int i = 0; i < m && std::getline(std::cin, line); i++) std::cout << line << '\n';
}
