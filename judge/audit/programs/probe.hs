-- judge audit: the Haskell probe program, the mode read from stdin (see judge/audit/).
-- cpu MS | mem MB | sleep MS
import Control.Concurrent (threadDelay)
import Data.Bits (xor, shiftL, shiftR)
import Data.Word (Word64, Word8)
import Foreign.Marshal.Alloc (mallocBytes)
import Foreign.Marshal.Utils (fillBytes)
import Foreign.Storable (peekByteOff)
import System.CPUTime (getCPUTime)
import System.Exit (exitWith, ExitCode(..))
import Text.Printf (printf)

-- The process's own CPU time (getCPUTime counts picoseconds).
processCpuMs :: IO Double
processCpuMs = (/ 1e9) . fromIntegral <$> getCPUTime

-- Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
-- then used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms.
spinUntil :: Double -> Word64 -> IO Word64
spinUntil ms x = do
  now <- processCpuMs
  if now >= ms then return x else spinUntil ms $! rounds (32768 :: Int) x
  where
    rounds 0 y = y
    rounds n y = let a = y `xor` (y `shiftL` 13)
                     b = a `xor` (a `shiftR` 7)
                 in rounds (n - 1) $! (b `xor` (b `shiftL` 17))

main :: IO ()
main = do
  ws <- words <$> getContents
  let arg = if length ws > 1 then read (ws !! 1) :: Double else 0
  case head ws of
    "cpu" -> do
      x <- spinUntil arg 7
      now <- processCpuMs
      printf "ok\nprocess_cpu_ms %.3f\n" (now + if x == 0 then 1 else 0)
    "mem" -> do
      -- Outside the garbage collected heap, which would keep a copy's worth of room.
      let size = floor (arg * 1048576) :: Int
      block <- mallocBytes (max size 1)
      fillBytes block 1 size   -- every page touched
      middle <- peekByteOff block (size `div` 2) :: IO Word8
      if size > 0 && middle /= 1 then exitWith (ExitFailure 3) else putStrLn "ok"
    "sleep" -> threadDelay (round arg * 1000) >> putStrLn "ok"
    _ -> exitWith (ExitFailure 2)
