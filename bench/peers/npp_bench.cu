// npp-bench: NVIDIA NPP's union-find CCL on the frames ccl-bench-peers-ours wrote (DIR/counts.csv lists
// them with our component counts), cudaEvents on one stream. Figure "npp" = nppiLabelMarkersUF_8u32u_C1R_Ctx
// + nppiCompressMarkerLabelsUF_32u_C1IR_Ctx (labels 1..N, no statistics), best of --runs; figure
// "npp-info" adds nppiCompressedMarkerLabelsUFInfo_32u_C1R_Ctx (area and bbox; NPP's only route to them
// also traces contours), best of --info-runs, since it costs about as much for an empty frame as for any. NPP labels background regions too, so the count compared with ours is the number of
// distinct labels on foreground pixels (counted by a kernel here, outside the timed work).
// Built on the GPU host (NPP ships with its CUDA toolkit): see run_all.sh.
// Output: "csv,npp[-info],<size>,<conn>,<g>,<d>,<components>,<ms>,<runs>,<match>,<note>".
#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "npp-bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void npp_ok(NppStatus s, const char* what) {
  if (s != NPP_SUCCESS) {
    std::fprintf(stderr, "npp-bench: %s returned NppStatus %d\n", what, int(s));
    std::exit(1);
  }
}

// Counts the distinct labels on foreground (mask != 0) and on background pixels.
__global__ void CountDistinctLabelsKernel(const Npp8u* mask, const Npp32u* labels, std::size_t pixels,
                                          unsigned* seen_fg, unsigned* seen_bg, unsigned long long* counts,
                                          std::size_t max_label) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < pixels;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const Npp32u l = labels[i];
    if (l > max_label) {
      atomicAdd(&counts[2], 1ull);  // label outside the table: reported, never silently dropped
      continue;
    }
    unsigned* seen = mask[i] ? seen_fg : seen_bg;
    if (!atomicExch(&seen[l], 1u)) atomicAdd(&counts[mask[i] ? 0 : 1], 1ull);
  }
}

struct Frame {
  std::string file, g;
  int size = 0, conn = 0, d = 0;
  unsigned long long ours = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::string dir = ".";
  int size = 0, conn = 8, runs = 20;
  double budget_ms = 1000;
  int info_runs = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string s = argv[i], v = argv[i + 1];
    if (s == "--dir") dir = v;
    else if (s == "--size") size = std::atoi(v.c_str());
    else if (s == "--conn") conn = std::atoi(v.c_str());
    else if (s == "--runs") runs = std::atoi(v.c_str());
    else if (s == "--budget-ms") budget_ms = std::atof(v.c_str());
    else if (s == "--info-runs") info_runs = std::atoi(v.c_str());
    else {
      std::fprintf(stderr, "usage: npp-bench --dir DIR --size N [--conn 8|4] [--runs R] [--budget-ms MS] [--info-runs K]\n");
      return 2;
    }
  }
  std::vector<Frame> frames;
  {
    std::ifstream in(dir + "/counts.csv");
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::stringstream ss(line);
      Frame f;
      std::string field;
      std::getline(ss, f.file, ',');
      std::getline(ss, field, ','); f.size = std::stoi(field);
      std::getline(ss, field, ','); f.conn = std::stoi(field);
      std::getline(ss, f.g, ',');
      std::getline(ss, field, ','); f.d = std::stoi(field);
      std::getline(ss, field, ','); f.ours = std::stoull(field);
      if (f.size == size && f.conn == conn) frames.push_back(f);
    }
  }
  if (frames.empty()) {
    std::fprintf(stderr, "npp-bench: no %dx%d frames for connectivity %d in %s/counts.csv\n", size, size, conn, dir.c_str());
    return 1;
  }
  const int n = size;
  const std::size_t pixels = std::size_t(n) * n;
  const NppiSize roi{n, n};

  cudaStream_t stream;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  NppStreamContext ctx{};
  ctx.hStream = stream;
  cuda_ok(cudaGetDevice(&ctx.nCudaDeviceId), "cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_ok(cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId), "cudaGetDeviceProperties");
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  cuda_ok(cudaStreamGetFlags(stream, &ctx.nStreamFlags), "cudaStreamGetFlags");
  const NppLibraryVersion* version = nppGetLibVersion();
  std::printf("npp,%d.%d.%d,%s\n", version->major, version->minor, version->build, prop.name);

  // Everything sized for the worst case (one label per pixel), once, outside the timed work.
  int label_buffer_bytes = 0, compress_buffer_bytes = 0;
  unsigned info_bytes = 0;
  npp_ok(nppiLabelMarkersUFGetBufferSize_32u_C1R(roi, &label_buffer_bytes), "nppiLabelMarkersUFGetBufferSize_32u_C1R");
  npp_ok(nppiCompressMarkerLabelsGetBufferSize_32u_C1R(int(pixels), &compress_buffer_bytes),
         "nppiCompressMarkerLabelsGetBufferSize_32u_C1R");
  npp_ok(nppiCompressedMarkerLabelsUFGetInfoListSize_32u_C1R(unsigned(pixels), &info_bytes),
         "nppiCompressedMarkerLabelsUFGetInfoListSize_32u_C1R");
  const std::size_t info_alloc = std::max<std::size_t>(info_bytes, (pixels + 1) * sizeof(NppiCompressedMarkerLabelsInfo));
  Npp8u *d_src, *d_label_buffer, *d_compress_buffer, *d_contours;
  Npp32u *d_labels, *d_contour_counts, *d_contour_offsets;
  NppiCompressedMarkerLabelsInfo* d_info;
  NppiContourPixelDirectionInfo* d_directions;
  unsigned *d_seen_fg, *d_seen_bg;
  unsigned long long* d_counts;
  cuda_ok(cudaMalloc(&d_src, pixels), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_labels, pixels * 4), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_label_buffer, label_buffer_bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_compress_buffer, compress_buffer_bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_info, info_alloc), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_contours, pixels), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_directions, pixels * sizeof(NppiContourPixelDirectionInfo)), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_contour_counts, (pixels + 4) * 4), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_contour_offsets, (pixels + 4) * 4), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_seen_fg, (pixels + 2) * 4), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_seen_bg, (pixels + 2) * 4), "cudaMalloc");
  cuda_ok(cudaMalloc(&d_counts, 3 * sizeof(unsigned long long)), "cudaMalloc");
  std::vector<Npp32u> h_contour_counts(pixels + 4), h_contour_offsets(pixels + 4);
  std::printf("npp-buffers,label %d B,compress %d B,info list %u B (allocated %zu B)\n", label_buffer_bytes,
              compress_buffer_bytes, info_bytes, info_alloc);
  cudaEvent_t start, stop;
  cuda_ok(cudaEventCreate(&start), "cudaEventCreate");
  cuda_ok(cudaEventCreate(&stop), "cudaEventCreate");

  std::vector<Npp8u> host(pixels);
  int mismatches = 0;
  for (const Frame& f : frames) {
    FILE* in = std::fopen((dir + "/" + f.file).c_str(), "rb");
    if (!in || std::fread(host.data(), 1, pixels, in) != pixels) {
      std::fprintf(stderr, "npp-bench: cannot read %s/%s\n", dir.c_str(), f.file.c_str());
      return 1;
    }
    std::fclose(in);
    // On NPP's stream: a plain cudaMemcpy from pageable memory can return before its DMA lands,
    // and nothing orders the legacy stream before a non-blocking one.
    cuda_ok(cudaMemcpyAsync(d_src, host.data(), pixels, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize (upload)");
    int max_label = 0;
    auto label = [&] {
      npp_ok(nppiLabelMarkersUF_8u32u_C1R_Ctx(d_src, n, d_labels, n * 4, roi, conn == 8 ? nppiNormInf : nppiNormL1,
                                              d_label_buffer, ctx),
             "nppiLabelMarkersUF_8u32u_C1R_Ctx");
    };
    auto compress = [&] {
      npp_ok(nppiCompressMarkerLabelsUF_32u_C1IR_Ctx(d_labels, n * 4, roi, int(pixels), &max_label, d_compress_buffer, ctx),
             "nppiCompressMarkerLabelsUF_32u_C1IR_Ctx");
    };
    auto info = [&] {
      NppiContourTotalsInfo totals{};
      npp_ok(nppiCompressedMarkerLabelsUFInfo_32u_C1R_Ctx(d_labels, n * 4, roi, unsigned(max_label), d_info, d_contours, n,
                                                          d_directions, int(n * sizeof(NppiContourPixelDirectionInfo)),
                                                          &totals, d_contour_counts, h_contour_counts.data(),
                                                          d_contour_offsets, h_contour_offsets.data(), ctx),
             "nppiCompressedMarkerLabelsUFInfo_32u_C1R_Ctx");
    };
    // distinct labels on foreground [0] and background [1] pixels, and labels out of range [2]
    auto count = [&](std::array<unsigned long long, 3>& counts) {
      cuda_ok(cudaMemsetAsync(d_seen_fg, 0, (pixels + 2) * 4, stream), "cudaMemset");
      cuda_ok(cudaMemsetAsync(d_seen_bg, 0, (pixels + 2) * 4, stream), "cudaMemset");
      cuda_ok(cudaMemsetAsync(d_counts, 0, 3 * sizeof(unsigned long long), stream), "cudaMemset");
      CountDistinctLabelsKernel<<<prop.multiProcessorCount * 8, 256, 0, stream>>>(d_src, d_labels, pixels, d_seen_fg,
                                                                                    d_seen_bg, d_counts, pixels + 1);
      cuda_ok(cudaGetLastError(), "CountDistinctLabelsKernel");
      cuda_ok(cudaMemcpyAsync(counts.data(), d_counts, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream),
              "cudaMemcpy");
      cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    };
    auto timed = [&](auto&& work) {
      cuda_ok(cudaEventRecord(start, stream), "cudaEventRecord");
      work();
      cuda_ok(cudaEventRecord(stop, stream), "cudaEventRecord");
      cuda_ok(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0;
      cuda_ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      return double(ms);
    };
    if (&f == &frames.front()) label(), compress(), info();  // warm-up of the library
    // The check: labels straight from the UF kernel, then after compression (the figure's result).
    std::array<unsigned long long, 3> uf{}, counts{}, last{};
    label();
    count(uf);
    compress();
    count(counts);

    double best = 1e30;
    int done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    while (done < runs) {
      best = std::min(best, timed([&] { label(); compress(); }));
      ++done;
      if (done >= std::min(3, runs) &&
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() > budget_ms)
        break;
    }
    count(last);  // the labels of the last timed run: NPP's UF is not deterministic if this differs
    double best_info = 1e30;
    for (int i = 0; i < info_runs; ++i) best_info = std::min(best_info, timed([&] { label(); compress(); info(); }));

    const bool match = counts[0] == f.ours && counts[2] == 0;
    if (!match) {
      ++mismatches;
      std::printf("mismatch,npp,%s,conn %d,ours %llu,npp %llu foreground labels (%llu straight from the UF kernel, %llu in "
                  "the last timed run),out-of-range labels %llu\n",
                  f.file.c_str(), conn, f.ours, counts[0], uf[0], last[0], counts[2]);
    }
    const std::string note = "; " + std::to_string(max_label) + " labels incl. " + std::to_string(counts[1]) +
                             " background regions; foreground labels from UF " + std::to_string(uf[0]) + ", last run " +
                             std::to_string(last[0]);
    std::printf("csv,npp,%d,%d,%s,%d,%llu,%.4f,%d,%d,labels+compress (no stats)%s\n", n, conn, f.g.c_str(), f.d, counts[0],
                best, done, match ? 1 : 0, note.c_str());
    if (info_runs > 0)
      std::printf("csv,npp-info,%d,%d,%s,%d,%llu,%.4f,%d,%d,labels+compress+info (area+bbox+contours)%s\n", n, conn,
                  f.g.c_str(), f.d, counts[0], best_info, info_runs, match ? 1 : 0, note.c_str());
    std::fflush(stdout);
  }
  std::printf("npp-mismatches,%d,%dx%d,conn %d\n", mismatches, n, n, conn);
  return 0;
}
