import qualified Data.ByteString.Char8 as B
import Data.Maybe (fromJust)

operations :: Integer -> Integer -> Integer
operations n 1 = n
operations 0 _ = 0
operations n k = n `mod` k + operations (n `div` k) k

main :: IO ()
main = do
  numbers <- map (fst . fromJust . B.readInteger) . B.words <$> B.getContents
  let t = fromIntegral (head numbers)
      pairs = take t (go (tail numbers))
      go (a:b:rest) = (a, b) : go rest
      go _ = []
  putStr (unlines [show (operations n k) | (n, k) <- pairs])
